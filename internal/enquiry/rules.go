package enquiry

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"studio/contracts"
)

// contracts/enquiry-rules.json is the one source of the enquiry rules: the
// limits, the phone pattern and the messages. The site's forms import the
// same file (web/app/lib/enquiries.ts), so the browser and the server
// judge alike; contracts/cases/enquiry-parity.json is the table of cases
// both are tested on.
var rulesJSON = contracts.EnquiryRules

// RuleSet is contracts/enquiry-rules.json.
type RuleSet struct {
	Limits struct {
		Name    int `json:"name"`
		Email   int `json:"email"`
		Phone   int `json:"phone"`
		Message int `json:"message"`
		// A shortlist's quote request: pieces in it, the quantity of one, characters of its note.
		Items    int `json:"items"`
		Quantity int `json:"quantity"`
		ItemNote int `json:"itemNote"`
	} `json:"limits"`
	PhonePattern       string            `json:"phonePattern"`
	EmailDomainPattern string            `json:"emailDomainPattern"`
	Messages           map[string]string `json:"messages"`
}

// Rules holds the enquiry rules every check uses.
var Rules = mustRules(rulesJSON)

var (
	phonePattern       = regexp.MustCompile(Rules.PhonePattern)
	emailDomainPattern = regexp.MustCompile(Rules.EmailDomainPattern)
)

func mustRules(b []byte) RuleSet {
	var r RuleSet
	if err := json.Unmarshal(b, &r); err != nil {
		panic("enquiry: contracts/enquiry-rules.json: " + err.Error())
	}
	for _, key := range []string{"nameMissing", "nameTooLong", "emailMissing", "emailTooLong", "emailInvalid", "phoneInvalid", "messageMissing", "messageTooLong"} {
		if r.Messages[key] == "" {
			panic("enquiry: contracts/enquiry-rules.json: messages." + key + " is missing")
		}
	}
	return r
}

// Message is the visitor's message for key, with {limit} filled in.
func (r RuleSet) Message(key string, limit int) string {
	return strings.ReplaceAll(r.Messages[key], "{limit}", strconv.Itoa(limit))
}
