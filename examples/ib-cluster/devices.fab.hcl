locals {
  # Every host's HCA port: its port GUID and where it is cabled.
  hosts = {
    gpu01  = { kind = "gpu", guid = "0x0002c90300001001", leaf = "leaf1", port = "1" }
    gpu02  = { kind = "gpu", guid = "0x0002c90300001002", leaf = "leaf1", port = "2" }
    sm01   = { kind = "sm", guid = "0x0002c90300003001", leaf = "leaf1", port = "3" }
    gpu03  = { kind = "gpu", guid = "0x0002c90300001003", leaf = "leaf2", port = "1" }
    gpu04  = { kind = "gpu", guid = "0x0002c90300001004", leaf = "leaf2", port = "2" }
    stor01 = { kind = "storage", guid = "0x0002c90300002001", leaf = "leaf2", port = "3" }
    gpu05  = { kind = "gpu", guid = "0x0002c90300001005", leaf = "leaf3", port = "1" }
    gpu06  = { kind = "gpu", guid = "0x0002c90300001006", leaf = "leaf3", port = "2" }
    sm02   = { kind = "sm", guid = "0x0002c90300003002", leaf = "leaf3", port = "3" }
    gpu07  = { kind = "gpu", guid = "0x0002c90300001007", leaf = "leaf4", port = "1" }
    gpu08  = { kind = "gpu", guid = "0x0002c90300001008", leaf = "leaf4", port = "2" }
    stor02 = { kind = "storage", guid = "0x0002c90300002002", leaf = "leaf4", port = "3" }
  }
  gpus    = [for n, h in local.hosts : n if h.kind == "gpu"]
  storage = [for n, h in local.hosts : n if h.kind == "storage"]
  sms     = { for n, h in local.hosts : n => h if h.kind == "sm" }
  nics    = { for n, h in local.hosts : n => h if h.kind != "sm" }

  # Switches are managed by the subnet manager: nothing is rendered for
  # them, but their node GUIDs name the fat tree's roots and the lab's
  # emulated topology.
  spines = { spine1 = "0x0002c90300000101", spine2 = "0x0002c90300000102" }
  leaves = {
    leaf1 = "0x0002c90300000201", leaf2 = "0x0002c90300000202"
    leaf3 = "0x0002c90300000203", leaf4 = "0x0002c90300000204"
  }
}

device "spine" {
  for_each = local.spines
  kind     = "spine"
  platform = "ib_switch"
  guid     = each.value
  # One port per leaf, numbered as the switch numbers them.
  ports { names = ["1", "2", "3", "4"] }
}

device "leaf" {
  for_each = local.leaves
  kind     = "leaf"
  platform = "ib_switch"
  guid     = each.value
  # Ports 1-3 face the hosts, 11 and 12 the spines.
  ports { names = ["1", "2", "3", "11", "12"] }
}

# Every leaf to every spine: leafN:11 ↔ spine1:N, leafN:12 ↔ spine2:N.
mesh "fat-tree" {
  lower       = keys(local.leaves)
  lower_ports = ["11", "12"]
  upper       = keys(local.spines)
  upper_ports = ["1", "2", "3", "4"]
}

# Two subnet managers (master and standby) with the same settings: every
# SM host gets byte-identical files, so a fail-over changes nothing.
device "sm" {
  for_each = local.sms
  kind     = "subnet_manager"
  platform = "opensm"
  sm {
    routing_engine = ["ftree"]
    # VL0-7: the lanes ibsim's ports (VLCap VL0-7) offer.
    max_op_vls = 4
  }
  port "ib0" {
    guid = each.value.guid
    peer = "${each.value.leaf}:${each.value.port}"
  }
  # fabricgen plan and apply log in over SSH to write the files.
  credentials {
    username     = "admin"
    password_env = "FABRICGEN_PASSWORD"
  }
}

# GPU and storage hosts: ConnectX HCAs. rdma { sl } is the SL their RDMA
# applications use (NCCL_IB_SL, UCX_IB_SL): compute for GPUs, storage for
# the storage hosts.
device "host" {
  for_each = local.nics
  kind     = "nic"
  platform = "nvidia_mlnx"
  rdma {
    sl = each.value.kind == "gpu" ? 3 : 2
  }
  port "ib0" {
    guid = each.value.guid
    peer = "${each.value.leaf}:${each.value.port}"
  }
}
