package blinding

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"

	"verdict/campaign"
	"verdict/internal/par"
)

// contentDigests returns the content digest and the obligations digest of
// items (any order). When forms is not nil (len(items) long), it also
// fills forms[i] with the bundle form of the i-th item in ID order.
func contentDigests(items []Item, forms []itemForm) (content, obligations string, err error) {
	// Items already in ID order (as build makes them) are not copied.
	byID := func(a, b Item) int { return strings.Compare(a.ID, b.ID) }
	sorted := items
	if !slices.IsSortedFunc(items, byID) {
		sorted = slices.Clone(items)
		slices.SortFunc(sorted, byID)
	}
	// Both digests are hashed while encoding, side by side: the canonical
	// bytes of every item of a large bundle are never held.
	var ce, oe error
	var wg sync.WaitGroup
	wg.Go(func() { obligations, oe = sharedObligationsDigest(sorted) })
	content, ce = itemsDigest(sorted, forms)
	wg.Wait()
	if ce != nil {
		return "", "", ce
	}
	if oe != nil {
		return "", "", oe
	}
	return content, obligations, nil
}

// itemsDigest is canonicalDigest(items) for a non-empty slice, with the
// items encoded side by side (GOMAXPROCS goroutines, a batch at a time)
// and hashed in order; when forms is not nil, forms[i] becomes the
// bundle form of items[i] (itemForm) from the same encoding. The
// canonical array is "[\n", then each item's
// canonical bytes indented by two spaces (JSON strings hold no raw line
// break), separated by ",\n", then "\n]\n". At most one batch of
// encoded items is held.
func itemsDigest(items []Item, forms []itemForm) (string, error) {
	if len(items) == 0 {
		return canonicalDigest(items)
	}
	const batch = 64
	tasks, err := encodeTaskMembers(items)
	if err != nil {
		return "", err
	}
	bufs := make([]bytes.Buffer, min(batch, len(items)))
	errs := make([]error, len(bufs))
	scratch := make([][]byte, par.Workers())
	h := sha256.New()
	w := bufio.NewWriterSize(h, 1<<16)
	w.WriteString("[\n")
	var line []byte
	for start := 0; start < len(items); start += batch {
		n := min(batch, len(items)-start)
		par.For(n, func(worker, k int) {
			bufs[k].Reset()
			errs[k] = encodeItem(&bufs[k], &items[start+k], tasks[taskKeyOf(&items[start+k])])
			if errs[k] == nil && forms != nil {
				scratch[worker] = bundleElement(scratch[worker][:0], bufs[k].Bytes())
				forms[start+k] = itemForm{n: len(scratch[worker]), sum: sha256.Sum256(scratch[worker])}
			}
		})
		for k := range n {
			if errs[k] != nil {
				return "", errs[k]
			}
			if start+k > 0 {
				w.WriteString(",\n")
			}
			w.WriteString("  ")
			line = indentLines(line[:0], bufs[k].Bytes(), "  ")
			w.Write(line)
		}
	}
	w.WriteString("\n]\n")
	if err := w.Flush(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// taskMembers are the members of an item that come from its task, in
// Item's order and with Item's tags: encoded once per task and shared by
// the encodings of its items (encodeItem).
type taskMembers struct {
	TaskText    string       `json:"task_text"`
	Evidence    []Excerpt    `json:"evidence"`
	Obligations []Obligation `json:"obligations"`
}

// taskKey identifies the task members an item shares with the other items
// of its task (the derivation builds one text, evidence list and
// obligation list per task, taskItem): the text, and each list by its
// first element and length (nil and empty lists apart). Items with equal
// keys have equal task members.
type taskKey struct {
	text  string
	ev    *Excerpt
	nEv   int
	evNil bool
	ob    *Obligation
	nOb   int
	obNil bool
}

func taskKeyOf(it *Item) taskKey {
	k := taskKey{text: it.TaskText, nEv: len(it.Evidence), evNil: it.Evidence == nil, nOb: len(it.Obligations), obNil: it.Obligations == nil}
	if len(it.Evidence) > 0 {
		k.ev = &it.Evidence[0]
	}
	if len(it.Obligations) > 0 {
		k.ob = &it.Obligations[0]
	}
	return k
}

// encodeTaskMembers encodes the task members of items once per distinct
// taskKey (side by side): the canonical encoding of taskMembers without
// its braces, the members one level deep as they stand inside an item.
func encodeTaskMembers(items []Item) (map[taskKey][]byte, error) {
	first := map[taskKey]int{}
	var keys []taskKey
	for i := range items {
		k := taskKeyOf(&items[i])
		if _, ok := first[k]; !ok {
			first[k] = i
			keys = append(keys, k)
		}
	}
	enc := make([][]byte, len(keys))
	errs := make([]error, len(keys))
	par.For(len(keys), func(_, j int) {
		it := &items[first[keys[j]]]
		var b bytes.Buffer
		if errs[j] = campaign.EncodeJSON(&b, &taskMembers{TaskText: it.TaskText, Evidence: it.Evidence, Obligations: it.Obligations}); errs[j] != nil {
			return
		}
		m, ok := bytes.CutPrefix(b.Bytes(), []byte("{\n"))
		m, ok2 := bytes.CutSuffix(m, []byte("\n}\n"))
		if !ok || !ok2 {
			errs[j] = errors.New("blinding: an item's task members do not encode as an object")
		}
		enc[j] = m
	})
	out := make(map[taskKey][]byte, len(keys))
	for j, k := range keys {
		if errs[j] != nil {
			return nil, errs[j]
		}
		out[k] = enc[j]
	}
	return out, nil
}

// encodeItem appends the canonical encoding of it (campaign.EncodeJSON's
// bytes) to w, with task, the members it shares with its task
// (encodeTaskMembers), spliced between its ID and its final answer instead
// of being encoded again: the task's text and evidence are over half of a
// bundle's bytes. The ID and the final answer are encoded into w itself
// (a caller reuses w from item to item). TestEncodeItemIsEncodeJSON holds
// it to the whole encoding.
func encodeItem(w *bytes.Buffer, it *Item, task []byte) error {
	w.WriteString("{\n  \"id\": ")
	if err := campaign.EncodeJSON(w, it.ID); err != nil {
		return err
	}
	w.Truncate(w.Len() - 1) // the encoding's final newline
	w.WriteString(",\n")
	w.Write(task)
	w.WriteString(",\n")
	// {"final": …} encoded whole ends as the item does ("\n}\n"); its
	// opening "{\n" is cut.
	at := w.Len()
	if err := campaign.EncodeJSON(w, &struct {
		Final campaign.Final `json:"final"`
	}{it.Final}); err != nil {
		return err
	}
	b := w.Bytes()
	if !bytes.HasPrefix(b[at:], []byte("{\n")) {
		return errors.New("blinding: an item's final answer does not encode as an object member")
	}
	n := copy(b[at:], b[at+2:])
	w.Truncate(at + n)
	return nil
}

// fileContentDigest is the content digest of items (contentDigests)
// computed from the bundle file's own bytes of each item (raw, in items'
// order, as decodeStrictBundle took them) instead of encoding the items
// again. It is only correct for a canonical file: ParseBundle checks that
// beside it and refuses otherwise. In the canonical form an item inside
// the bundle is indented one level deeper than in the canonical array of
// items the content digest covers, so every line of an item's bytes after
// the first loses two spaces (JSON strings hold no raw line break).
func fileContentDigest(items []Item, raw [][]byte) string {
	switch {
	case items == nil:
		return Digest([]byte("null\n"))
	case len(items) == 0:
		return Digest([]byte("[]\n"))
	}
	ids := make([]string, len(items))
	for i := range items {
		ids[i] = items[i].ID
	}
	return rawContentDigest(ids, raw)
}

// itemObligations is one element of the array the obligations digest
// covers: an item's ID and its obligations, by item ID.
type itemObligations struct {
	Item        string       `json:"item"`
	Obligations []Obligation `json:"obligations"`
}

// obligationsKey identifies an obligation list by its memory (its first
// element and length, nil and empty apart): two lists with equal keys are
// the same elements, so they encode alike.
type obligationsKey struct {
	first *Obligation
	n     int
	isNil bool
}

// sharedObligationsDigest is the obligations digest of items sorted by ID
// (canonicalDigest of each item's itemObligations, in that order) with
// each distinct obligation list encoded once (obligationsKey; the
// derivation shares one list among the items of a task) and only each
// item's ID encoded per item. The canonical array is laid out as
// itemsDigest's: "[\n", each element indented two spaces, ",\n" between
// elements, "\n]\n". TestSharedObligationsDigest holds it to
// obligationsDigest.
func sharedObligationsDigest(sorted []Item) (string, error) {
	if len(sorted) == 0 {
		return obligationsDigest(sorted)
	}
	// The encoding of a list under an empty ID, split around that ID.
	type halves struct{ head, tail []byte }
	shared := map[obligationsKey]halves{}
	emptyID := []byte(`"item": ""`)
	h := sha256.New()
	w := bufio.NewWriterSize(h, 1<<16)
	w.WriteString("[\n")
	var elem, line []byte
	var id bytes.Buffer
	for k := range sorted {
		it := &sorted[k]
		key := obligationsKey{n: len(it.Obligations), isNil: it.Obligations == nil}
		if key.n > 0 {
			key.first = &it.Obligations[0]
		}
		parts, ok := shared[key]
		if !ok {
			var b bytes.Buffer
			if err := campaign.EncodeJSON(&b, &itemObligations{Obligations: it.Obligations}); err != nil {
				return "", err
			}
			at := bytes.Index(b.Bytes(), emptyID)
			if at < 0 {
				return "", errors.New("blinding: an item's obligations do not encode with their item ID first")
			}
			parts = halves{head: b.Bytes()[:at+len(emptyID)-2], tail: b.Bytes()[at+len(emptyID):]}
			shared[key] = parts
		}
		id.Reset()
		if err := campaign.EncodeJSON(&id, it.ID); err != nil {
			return "", err
		}
		elem = append(append(append(elem[:0], parts.head...), bytes.TrimSuffix(id.Bytes(), []byte("\n"))...), parts.tail...)
		if k > 0 {
			w.WriteString(",\n")
		}
		w.WriteString("  ")
		line = indentLines(line[:0], elem, "  ")
		w.Write(line)
	}
	w.WriteString("\n]\n")
	if err := w.Flush(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// obligationsDigest is the obligations digest of items (any order).
func obligationsDigest(items []Item) (string, error) {
	obs := make([]itemObligations, 0, len(items))
	for _, i := range byID(len(items), func(i int) string { return items[i].ID }) {
		obs = append(obs, itemObligations{items[i].ID, items[i].Obligations})
	}
	return canonicalDigest(obs)
}

// byID is the positions 0 … n-1 ordered by the item ID at each (stable).
func byID(n int, id func(i int) string) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(id(a), id(b)) })
	return order
}

// rawContentDigest is the content digest of a non-empty list of items
// from each item's bytes as they stand in a canonical bundle file (raw[i],
// from its '{' to its '}', of the item whose ID is ids[i]): the items in
// ID order, each outdented by the two spaces it stands deeper in the
// bundle than in the content array.
func rawContentDigest(ids []string, raw [][]byte) string {
	ch := sha256.New()
	cw := bufio.NewWriterSize(ch, 1<<16)
	cw.WriteString("[\n")
	var out []byte
	for k, i := range byID(len(ids), func(i int) string { return ids[i] }) {
		if k > 0 {
			cw.WriteString(",\n")
		}
		cw.WriteString("  ")
		out = outdented(out[:0], raw[i])
		cw.Write(out)
	}
	cw.WriteString("\n]\n")
	cw.Flush() // a hash takes every write
	return hex.EncodeToString(ch.Sum(nil))
}
