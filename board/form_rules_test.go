package board

import (
	"errors"
	"regexp"
	"testing"

	"tele/board/formtable"
)

// TestFormRuleIDs: every refusal of the form table carries the id of its rule and the arguments its
// words name, and the English words have no placeholder left, so a page can say the same thing in its
// own language (assets/jstest/form-rules.test.mjs checks that both of the page's languages have words
// for every id).
func TestFormRuleIDs(t *testing.T) {
	placeholder := regexp.MustCompile(`\{(\w+)\}`)
	seen := map[string]bool{}
	for _, fc := range formtable.Cases(t) {
		if fc.Error == nil {
			continue
		}
		doc := `{"title":"T","tempo":120,"beatsPerBar":4,"sections":` + string(fc.Sections) + `}`
		_, err := ParseContent([]byte(doc))
		ve, ok := errors.AsType[*ValidationError](err)
		if !ok {
			t.Fatalf("%s: %v", fc.Name, err)
		}
		text, known := formRules[ve.RuleID]
		if !known {
			t.Errorf("%s: rule id %q (%s) is not in formRules", fc.Name, ve.RuleID, ve.Rule)
			continue
		}
		seen[ve.RuleID] = true
		if placeholder.MatchString(ve.Rule) {
			t.Errorf("%s: %q keeps a placeholder", fc.Name, ve.Rule)
		}
		for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
			if m[1] == "want" || m[1] == "target" {
				continue // words made from the sign or the jump
			}
			if _, ok := ve.RuleArgs[m[1]]; !ok {
				t.Errorf("%s: rule %s lacks the argument %s: %v", fc.Name, ve.RuleID, m[1], ve.RuleArgs)
			}
		}
	}
	if len(seen) < 20 {
		t.Errorf("the form table reaches only %d rule ids", len(seen))
	}
}
