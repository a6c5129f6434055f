package ibswitch

import "testing"

func TestPortNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "17": true, "254": true, "0": false, "255": false, "01": false, "+1": false, "-1": false,
		"": false, "1a": false, "Ethernet1": false, "1/1": false, "1000": false, "٣": false,
	} {
		if got := portNumber(s); got != want {
			t.Errorf("portNumber(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSpecIsManagedInfiniBand(t *testing.T) {
	s := Platform().Spec
	if !s.Managed || s.Host || !s.SpeaksLinkLayer("infiniband") || s.SpeaksLinkLayer("ethernet") || s.Release != nil {
		t.Errorf("spec = %+v: want a managed InfiniBand switch with no release form", s)
	}
	if len(Platform().Missing()) != 0 {
		t.Errorf("missing parts: %v", Platform().Missing())
	}
}
