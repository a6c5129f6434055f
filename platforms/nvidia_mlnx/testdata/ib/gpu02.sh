#!/usr/bin/env bash
# fabricgen: fabric ib1, device gpu02 (nvidia_mlnx)
# intent digest (none)
# Generated from the fabric intent; edit the intent, not this file.
# follows: NVIDIA/nccl src/transport/net_ib (NCCL_IB_SL; NCCL_IB_PKEY, a P_Key index), openucx/ucx ib_iface.c (UCX_IB_SL)
# Sourced by jobs: NCCL and UCX build their QPs without the SA, so the SL (and P_Key index) is set here.
# no rdma { sl }: NCCL and UCX use their defaults
