qos_policy "half" {
  trust = "dscp"
  /*|broken-file-attrs*/
  classes = [
