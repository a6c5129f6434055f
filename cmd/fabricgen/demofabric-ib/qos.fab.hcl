# The intent of an InfiniBand GPU cluster: the service levels its
# applications use, how the subnet manager arbitrates the lanes they map
# to, and the partitions that separate compute from storage.
fabric "ib-cluster" {
  description = "2-tier InfiniBand fat tree: 8 GPU hosts, 2 storage hosts, 2 subnet managers"
  link_layer  = "infiniband"
  qos_policy  = qos_policy.ib
}

# NCCL traffic between GPUs. NCCL builds its QPs without asking the SA, so
# the hosts' rdma { sl } below is what puts it on SL 3.
traffic_class "compute" {
  sl     = 3
  weight = 60
}

# Storage (NVMe-oF, GPUDirect Storage) on its own lane, so a checkpoint
# burst cannot take the compute lane's share.
traffic_class "storage" {
  sl     = 2
  weight = 30
}

# Everything unmatched: IPoIB, SA queries, ssh over IPoIB.
traffic_class "default" {
  role   = "default"
  sl     = 0
  weight = 10
}

# SM-to-SM and monitoring: served first (VL arbitration high table).
traffic_class "mgmt" {
  sl        = 1
  scheduler = "strict"
}

qos_policy "ib" {
  classes = [traffic_class.compute, traffic_class.storage, traffic_class.default, traffic_class.mgmt]
  # IB MTU in bytes. 2048 rather than 4096: the lab's ibsim ports report
  # MtuCap 2048, and the partitions' broadcast groups use the same value,
  # so IPoIB is not cut down below the links' MTU.
  mtu = 2048
}

# The Default partition (P_Key 0x7fff): every host a full member, so IPoIB
# and the SMs' own traffic reach everyone.
partition "Default" {
  default = true
  members = keys(local.hosts)
  ipoib   = true
  mtu     = 2048
}

# GPU hosts talk to each other as full members.
partition "compute" {
  pkey    = "0x8001"
  members = local.gpus
  ipoib   = true
  mtu     = 2048
  sl      = 3
}

# GPU hosts reach the storage hosts but not each other over this partition:
# limited members cannot talk to limited members, so the targets are full.
partition "storage" {
  pkey         = "0x8002"
  members      = local.gpus
  membership   = "limited"
  full_members = local.storage
  ipoib        = true
  mtu          = 2048
  sl           = 2
}
