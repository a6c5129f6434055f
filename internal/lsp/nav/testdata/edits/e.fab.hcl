traffic_class "roce" {
  role     = "roce"
  priority = 3 # keep this comment
  /*|class-body*/lossless = true
}

qos_policy "p" {
  /*|trust*/trust = "pcp" # the comment stays
  mtu   = 9214
  queue "3" { /*|one-line*/shaper = "10G" }
  queue "4" {/*|empty*/}
}

device "d" {
	kind = "leaf"
	/*|tab-port*/port "Ethernet1" {
		speed = "400G"
	}
}
