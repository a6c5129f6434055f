# The InfiniBand fabric every IBQ lint fixture (testdata/fixtures/ibq…) is
# loaded with (lint/fixtures_test.go, familyBase): a 2-tier fat tree of two
# spines, two leaves, four GPU hosts, a storage host and two subnet managers.
# It holds only the blocks no case changes; a case holds the rest of the
# fabric (storage and compute classes, partitions compute and storage, the
# subnet managers, gpu02 and stor01), whole, with what it changes.

fabric "ib" {
  link_layer = "infiniband"
}

traffic_class "mgmt" {
  role      = "control"
  sl        = 1
  scheduler = "strict"
}

partition "Default" {
  pkey    = "0x7fff"
  default = true
  members = ["gpu01", "gpu02", "gpu03", "gpu04", "stor01", "sm01", "sm02"]
}

device "spine1" {
  kind     = "spine"
  platform = "ib_switch"
  guid     = "0x0002c90300b00001"

  ports {
    names = ["1", "2"]
  }
}

device "spine2" {
  kind     = "spine"
  platform = "ib_switch"
  guid     = "0x0002c90300b00002"

  ports {
    names = ["1", "2"]
  }
}

device "leaf1" {
  kind     = "leaf"
  platform = "ib_switch"
  guid     = "0x0002c90300b00011"

  ports {
    names = ["1", "2", "3", "4", "31", "32"]
  }
}

device "leaf2" {
  kind     = "leaf"
  platform = "ib_switch"
  guid     = "0x0002c90300b00012"

  ports {
    names = ["1", "2", "3", "4", "31", "32"]
  }
}

device "gpu01" {
  kind     = "nic"
  platform = "nvidia_mlnx"

  rdma {
    sl = 3
  }

  port "ib0" {
    guid = "0x0002c90300a00101"
    mtu  = 4096
  }
}

device "gpu03" {
  kind     = "nic"
  platform = "nvidia_mlnx"

  rdma {
    sl = 3
  }

  port "ib0" {
    guid = "0x0002c90300a00103"
    mtu  = 4096
  }
}

device "gpu04" {
  kind     = "nic"
  platform = "nvidia_mlnx"

  rdma {
    sl = 3
  }

  port "ib0" {
    guid = "0x0002c90300a00104"
    mtu  = 4096
  }
}

link "host" {
  for_each = { gpu01 = "leaf1:1", gpu02 = "leaf1:2", gpu03 = "leaf2:1", gpu04 = "leaf2:2", stor01 = "leaf1:3", sm01 = "leaf1:4", sm02 = "leaf2:4" }
  a        = "${each.key}:ib0"
  b        = each.value
}

link "uplink" {
  for_each = { "leaf1:31" = "spine1:1", "leaf1:32" = "spine2:1", "leaf2:31" = "spine1:2", "leaf2:32" = "spine2:2" }
  a        = each.key
  b        = each.value
}
