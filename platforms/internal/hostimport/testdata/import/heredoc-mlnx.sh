# here-strings, sh -c, [[ ]] and a here-document that never ends
read -r x <<< "$VALUE"
sudo sh -c 'echo 26 > /sys/class/net/eth0/ecn/roce_np/cnp_dscp; mlnx_qos -i eth0 --trust dscp'
if [[ $x != "1" && $x != "ECN(0)" ]]; then mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0; fi
echo 9 > /sys/class/net/eth0/ecn/roce_np/cnp_dscp > /dev/null
cat > /tmp/x <<EOF
mlnx_qos -i eth0 --trust pcp
