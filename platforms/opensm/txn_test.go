package opensm

import (
	"strings"
	"testing"

	"github.com/fabricgen/fabricgen/internal/filebundle"
)

// finalOf is the file set of rendered files m, with edit applied to one
// file's text.
func finalOf(m map[string]string, file string, edit func(string) string) fileSet {
	fs := fileSet{}
	for name, text := range m {
		if name == file {
			text = edit(text)
		}
		fs[ConfigDir+"/"+name] = filebundle.File{Path: ConfigDir + "/" + name, Text: []byte(text)}
	}
	return fs
}

// TestCheckFinalRefusesWhatOpenSMDrops: the pre-check of the file swap
// passes the render and refuses, before anything is written, each file
// OpenSM 3.3 would take with exit status 0 and then run without (an
// unknown option, QoS off, a policy its sweep rejects whole, a
// partitions file it cannot read).
func TestCheckFinalRefusesWhatOpenSMDrops(t *testing.T) {
	m := rendered(t, testFabric())
	if why := checkFinal(finalOf(m, "", nil)); why != "" {
		t.Fatalf("the render fails the pre-check: %s", why)
	}
	cases := []struct {
		name, file string
		edit       func(string) string
		want       string
	}{
		{"unknown option", FileConf, func(s string) string { return s + "qos_ca_sl2vl_typo 0\n" }, `does not know the option "qos_ca_sl2vl_typo"`},
		{"qos off", FileConf, func(s string) string { return strings.Replace(s, "qos TRUE", "qos FALSE", 1) }, "qos is not TRUE"},
		{"bad sl2vl", FileConf, func(s string) string { return s + "qos_ca_sl2vl 0,1,banana\n" }, "qos_ca_sl2vl"},
		{"no DEFAULT level", FilePolicy, func(s string) string {
			return strings.Replace(strings.Replace(s, "name: DEFAULT", "name: default-ish", 1), "  default : 0\n", "", 1)
		}, "reject the whole policy"},
		{"undefined group", FilePolicy, func(s string) string { return strings.Replace(s, "source: compute", "source: nosuchgroup", 1) }, "reject the whole policy"},
		{"policy syntax", FilePolicy, func(s string) string { return strings.Replace(s, "end-qos-levels", "end-qos-levelz", 1) }, "check qos-policy.conf"},
		{"no policy file", FilePolicy, nil, "which the host does not have"},
		{"no opensm.conf", FileConf, nil, "would run on its defaults"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var fs fileSet
			if c.edit == nil {
				fs = finalOf(m, "", nil)
				delete(fs, ConfigDir+"/"+c.file)
			} else {
				fs = finalOf(m, c.file, c.edit)
			}
			if why := checkFinal(fs); !strings.Contains(why, c.want) {
				t.Errorf("checkFinal = %q, want it to say %q", why, c.want)
			}
		})
	}
}

// TestExpectedTablesFromTheFiles: what verify expects on the SM host's
// port comes from the files alone: the CA set, the switch set, and the
// P_Keys of the partitions SELF is a full member of.
func TestExpectedTablesFromTheFiles(t *testing.T) {
	m := rendered(t, testFabric())
	fs := finalOf(m, "", nil)
	o, err := fs.options()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := expectedTables(o, fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.pkeys) == 0 || tab.pkeys[0] != 0xffff {
		t.Errorf("P_Keys %x: want the full Default partition first", tab.pkeys)
	}
	ca, _ := o.QoS("ca")
	if tab.ca.SL2VL != ca.SL2VL || tab.ca.SL2VL == [16]int{} {
		t.Errorf("CA SL2VL %v, want the file's %v (not all zero)", tab.ca.SL2VL, ca.SL2VL)
	}
}
