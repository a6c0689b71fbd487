// Package tokens counts tokens under a frozen tokenizer offline, for the
// 60,000-token limit of a system comparison's raw-observation packet
// (PROMPTS.md "Maximum returned packet size is 60,000 tokens under the
// frozen tokenizer"). It serves the byte-pair encodings that
// github.com/pkoukk/tiktoken-go ships embedded through its offline loader
// (o200k_base, cl100k_base, p50k_base, r50k_base): nothing is fetched. A
// tokenizer identity it does not serve is reported as such, and the caller
// falls back to the runner-recorded counts.
package tokens

import (
	"sync"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// Library names the counting library in a packet's counting member.
const Library = "tiktoken-go"

var (
	once  sync.Once
	mu    sync.Mutex
	cache = map[string]*tiktoken.Tiktoken{}
)

// served lists the encodings whose ranks the offline loader embeds.
var served = map[string]bool{"o200k_base": true, "cl100k_base": true, "p50k_base": true, "r50k_base": true}

// Counter counts the tokens of a text under one encoding.
type Counter struct {
	// Name is the encoding, e.g. "o200k_base".
	Name string
	enc  *tiktoken.Tiktoken
}

// For returns the counter of the frozen tokenizer named name, or ok false
// when the library does not serve it offline (then the runner-recorded
// count, checked for consistency, is the count). Loading an encoding's
// ranks once takes about a second; later calls reuse them.
func For(name string) (c *Counter, ok bool, err error) {
	if !served[name] {
		return nil, false, nil
	}
	once.Do(func() { tiktoken.SetBpeLoader(loader.NewOfflineLoader()) })
	mu.Lock()
	defer mu.Unlock()
	enc, hit := cache[name]
	if !hit {
		enc, err = tiktoken.GetEncoding(name)
		if err != nil {
			return nil, false, err
		}
		cache[name] = enc
	}
	return &Counter{Name: name, enc: enc}, true, nil
}

// Count returns the number of tokens of text as ordinary text: special
// token spellings inside tool output are counted as the text they are,
// never as control tokens.
func (c *Counter) Count(text []byte) int64 {
	if len(text) == 0 {
		return 0
	}
	return int64(len(c.enc.EncodeOrdinary(string(text))))
}
