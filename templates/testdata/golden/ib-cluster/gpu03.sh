#!/usr/bin/env bash
# fabricgen: fabric ib-cluster, device gpu03 (nvidia_mlnx)
# intent digest f8b461d594405529911e244f30822a2617921a5586c3f5ee3d572e10a4ff7997
# Generated from the fabric intent; edit the intent, not this file.
# follows: NVIDIA/nccl src/transport/net_ib (NCCL_IB_SL; NCCL_IB_PKEY, a P_Key index), openucx/ucx ib_iface.c (UCX_IB_SL)
# Sourced by jobs: NCCL and UCX build their QPs without the SA, so the SL (and P_Key index) is set here.
export NCCL_IB_SL=3
export UCX_IB_SL=3
# NCCL_IB_PKEY is the index of partition compute in the port's P_Key table (Default at 0).
export NCCL_IB_PKEY=1
