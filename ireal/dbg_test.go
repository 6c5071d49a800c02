package ireal
import ("testing";"fmt";"os")
func TestDbg(t *testing.T){
 s,_ := Parse([]byte(os.Getenv("LINK")))
 for _, x := range s { fmt.Printf("%v\n%q\n", x.Err, x.Notes); for _, sec := range x.Content.Sections { fmt.Printf("%+v\n", sec.Bars) } }
}
