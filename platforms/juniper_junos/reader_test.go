package juniperjunos

import (
	"testing"

	"github.com/fabricgen/fabricgen/internal/qosread/qosreadtest"
)

func FuzzReadQoS(f *testing.F) {
	qosreadtest.Fuzz(f, read, "set class-of-service classifiers dscp C forwarding-class roce loss-priority low code-points 011010\n")
}
