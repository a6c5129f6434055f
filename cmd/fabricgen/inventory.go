package main

import (
	"fmt"

	"github.com/fabricgen/fabricgen/internal/inventory"
)

// inventoryHelp describes --inventory for every command that takes it.
const inventoryHelp = "inventory file giving each device's \"host:port\" (and, from Ansible, ansible_user), overriding mgmt_address: fabricgen's JSON {\"device\": \"host:port\"} (fabricgen lab up writes one) or an Ansible inventory, YAML or INI, told apart by content"

// maxAnsibleInventorySize bounds an Ansible inventory (YAML or INI), whose
// text costs more to read than the flat JSON.
const maxAnsibleInventorySize = 16 << 20

// readInventoryFile reads an --inventory file in any form the inventory
// package reads; no path is an empty inventory.
func readInventoryFile(path string) (*inventory.Inventory, error) {
	if path == "" {
		return &inventory.Inventory{}, nil
	}
	b, err := readFileBounded(path, maxInventorySize)
	if err != nil {
		return nil, fmt.Errorf("--inventory: %w", err)
	}
	if len(b) > maxAnsibleInventorySize && b[0] != '{' {
		return nil, fmt.Errorf("--inventory %s: %d bytes; an Ansible inventory may hold at most %d MiB", path, len(b), maxAnsibleInventorySize>>20)
	}
	inv, err := inventory.Parse(path, b)
	if err != nil {
		return nil, fmt.Errorf("--inventory: %w", err)
	}
	return inv, nil
}

// readInventory is the devices' addresses of an --inventory file.
func readInventory(path string) (map[string]string, error) {
	inv, err := readInventoryFile(path)
	if err != nil {
		return nil, err
	}
	return inv.Addr, nil
}
