# The same SKU at 400G: its lookup file has the row, nothing to report.

device "x1" {
  kind     = "leaf"
  platform = "sonic"
  asic     = "broadcom"
  hwsku    = "DellEMC-Z9332f-O32"

  port "Ethernet0" {
    speed = "400G"
  }
}
