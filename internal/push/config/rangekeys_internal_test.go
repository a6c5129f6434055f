package config

import "testing"

func TestParseSpan(t *testing.T) {
	for _, c := range []struct {
		key    string
		want   span
		ranged bool
	}{
		{"Ethernet0|5", span{"Ethernet0", 5, 5}, true},
		{"Ethernet0|5-6", span{"Ethernet0", 5, 6}, true},
		{"Ethernet0|0-1023", span{"Ethernet0", 0, 1023}, true},
		{"Ethernet0|5-5", span{}, false},
		{"Ethernet0|05", span{"Ethernet0", 5, 5}, true},
		{"Ethernet0|1024", span{}, false},
		{"Ethernet0|0-1000000", span{}, false},
		{"Ethernet0|99999999999999999999", span{}, false},
		{"Ethernet0|x-y", span{}, false},
		{"Ethernet0|6-5", span{}, false},
		{"Ethernet0|3-4-5", span{}, false},
		{"Ethernet0", span{}, false},
		{"Ethernet0|", span{}, false},
		{"|3", span{}, false},
		{"Ethernet0|-3", span{}, false},
		{"Ethernet0|3-", span{}, false},
		{"Ethernet0|+5", span{}, false},
		{"Ethernet0| 5", span{}, false},
		{"Ethernet0|5|6", span{}, false},
		{"Ethernet0,Ethernet4|3-4", span{}, false},
		{"Ethernet0|٣", span{}, false},
	} {
		got, ok := parseSpan(c.key)
		if ok != c.ranged || got != c.want {
			t.Errorf("parseSpan(%q) = %v, %v; want %v, %v", c.key, got, ok, c.want, c.ranged)
		}
		if ok && got.key() != c.key && c.key != "Ethernet0|05" {
			t.Errorf("span %v prints as %q, not %q", got, got.key(), c.key)
		}
	}
}
