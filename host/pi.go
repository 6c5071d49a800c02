package host

import (
	"fmt"
	"strconv"
	"strings"
)

// What each Pi version has (docs/bridge.md). The bridge reports the running Pi's version in its hello;
// the host decides from it, so the rule lives here and not in the bridge.
//   - 0.73 is the oldest Pi Tele supports: an older one gets a fatal `unsupported_pi` at /tele.
//   - From 0.87.0 Pi emits agent_settled once no retry, compaction or queued message follows a run; the
//     bridge then takes `settled` from it and starts no idle polling (older Pis get an idle check).
//   - From 0.84.4 Pi emits ui_prompt_start/end around its own dialogs (older Pis: only dialogs that
//     extensions announce on pi.events count).
var (
	piOldestSupported = piVersion{0, 73, 0}
	piEvents          = []struct {
		name  string
		since piVersion
	}{
		{"agent_settled", piVersion{0, 87, 0}},
		{"ui_prompt", piVersion{0, 84, 4}},
	}
)

// piVersion is major.minor.patch of a Pi release.
type piVersion [3]int

// parsePiVersion reads "1.6.0" (a pre-release or build suffix is ignored); ok is false for anything else.
func parsePiVersion(s string) (v piVersion, ok bool) {
	core, _, _ := strings.Cut(s, "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p != strconv.Itoa(n) {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func (v piVersion) less(w piVersion) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// piFeatures splits the events Tele needs into those the Pi of version emits (native) and those the
// bridge imitates. A version that does not parse gets everything imitated: never assume an event.
// unsupported says why an older Pi cannot run Tele (empty when it can).
func piFeatures(version string) (native, imitated []string, unsupported string) {
	v, ok := parsePiVersion(version)
	if ok && v.less(piOldestSupported) {
		return nil, nil, fmt.Sprintf("Pi %s is too old for Tele; update Pi to 0.73 or later: npm install -g @earendil-works/pi-coding-agent", version)
	}
	native, imitated = []string{}, []string{}
	for _, e := range piEvents {
		if ok && !v.less(e.since) {
			native = append(native, e.name)
		} else {
			imitated = append(imitated, e.name)
		}
	}
	return native, imitated, ""
}

// Where a `settled` came from: Pi's own agent_settled, or the bridge's idle check after agent_end.
const (
	settledByPi        = "agent_settled"
	settledByIdleCheck = "idle_check"
)
