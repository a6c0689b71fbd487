package adjudication_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"verdict/adjudication"
	"verdict/blinding"
)

func TestGradeModel(t *testing.T) {
	b := testBundles(t).Bundles[0]
	fields := adjudication.BundleFields(b)
	// Per item: 3 obligations (2 answerable, 1 not) + 2 claims × 2 + 2 citations + exclusions + completeness.
	n := 0
	for _, it := range b.Items {
		n += 3 + 4 + 2 + len(it.Final.Exclusions) + 1
	}
	if len(fields) != n {
		t.Fatalf("fields = %d, want %d", len(fields), n)
	}
	it := &b.Items[0]
	rf := adjudication.RequiredFields(it)
	want := []adjudication.Field{{it.ID, adjudication.KindObligation, "O1"}, {it.ID, adjudication.KindObligation, "O2"}, {it.ID, adjudication.KindUncertainty, "O3"},
		{it.ID, adjudication.KindClaim, "C1"}, {it.ID, adjudication.KindClaimCritical, "C1"}}
	for i, f := range want {
		if rf[i] != f {
			t.Fatalf("field %d = %v, want %v", i, rf[i], f)
		}
	}
	if rf[len(rf)-1] != (adjudication.Field{it.ID, adjudication.KindCompleteness, "final"}) {
		t.Fatalf("last field %v", rf[len(rf)-1])
	}
	ok := adjudication.Grade{Field: adjudication.Field{it.ID, adjudication.KindCitation, "K2"}, Value: "supports"}
	if err := adjudication.CheckGrade(b, ok); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		g    adjudication.Grade
		want error
	}{
		{adjudication.Grade{Field: adjudication.Field{"item-0", adjudication.KindClaim, "C1"}, Value: "wrong"}, adjudication.ReasonUnknownItem},
		{adjudication.Grade{Field: adjudication.Field{it.ID, adjudication.KindCitation, "K3"}, Value: "supports"}, adjudication.ReasonUnknownField},
		{adjudication.Grade{Field: adjudication.Field{it.ID, adjudication.KindObligation, "O3"}, Value: "addressed"}, adjudication.ReasonUnknownField},
		{adjudication.Grade{Field: adjudication.Field{it.ID, adjudication.KindUncertainty, "O3"}, Value: "addressed"}, adjudication.ReasonBadValue},
		{adjudication.Grade{Field: adjudication.Field{it.ID, adjudication.KindOracleDefect, "O2"}, Value: "defective"}, adjudication.ReasonNoteRequired},
		{adjudication.Grade{Field: adjudication.Field{it.ID, adjudication.KindOracleDefect, "O9"}, Value: "defective", Note: "x"}, adjudication.ReasonUnknownField},
		{adjudication.Grade{Field: adjudication.Field{it.ID, adjudication.KindClaim, "C1"}, Value: "wrong", Note: " padded"}, adjudication.ReasonBadNote},
	}
	for _, c := range cases {
		if err := adjudication.CheckGrade(b, c.g); !errors.Is(err, c.want) {
			t.Errorf("%v: err = %v, want %v", c.g, err, c.want)
		}
	}
}

func TestJournalResumeSupersedeLock(t *testing.T) {
	b := testBundles(t).Bundles[0]
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := adjudication.Open(path, b, adjudication.WithClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := adjudication.Open(path, b); !errors.Is(err, adjudication.ReasonJournalLocked) {
		t.Fatalf("second writer: err = %v, want locked", err)
	}
	fields := adjudication.BundleFields(b)
	for i, f := range fields[:5] {
		if err := j.Append(adjudication.Grade{Field: f, Value: valueFor(f, i), Spent: 1500 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
	}
	// Supersede field 0.
	if err := j.Append(adjudication.Grade{Field: fields[0], Value: valueFor(fields[0], 1), Note: "changed my mind"}); err != nil {
		t.Fatal(err)
	}
	flag := adjudication.Grade{Field: adjudication.Field{b.Items[0].ID, adjudication.KindOracleDefect, "O1"}, Value: "defective", Note: "the oracle misreads E1"}
	if err := j.Append(flag); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(adjudication.Grade{Field: fields[1], Value: "nonsense"}); !errors.Is(err, adjudication.ReasonBadValue) {
		t.Fatalf("bad value: %v", err)
	}
	st := j.State()
	if len(st.Ungraded) != len(fields)-5 || st.Entries != 7 || st.Ungraded[0] != fields[5] {
		t.Fatalf("state: %d ungraded, %d entries", len(st.Ungraded), st.Entries)
	}
	mustClose(t, j)

	j2, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, j2)
	st2 := j2.State()
	if len(st2.Grades) != 6 || st2.Grades[0].Value != valueFor(fields[0], 1) || st2.Grades[0].Note != "changed my mind" || st2.Grades[5] != flag {
		t.Fatalf("resumed grades %+v", st2.Grades)
	}
	if len(j2.Entries()) != 8 {
		t.Fatalf("entries %d: superseded entry erased?", len(j2.Entries()))
	}
	if got := st2.Spent[fields[0].Item]; got < 1500*time.Millisecond {
		t.Fatalf("spent %v", got)
	}
	// Withdrawing the oracle-defect flag keeps its entry.
	if err := j2.Append(adjudication.Grade{Field: flag.Field, Value: adjudication.ValueWithdrawn}); err != nil {
		t.Fatal(err)
	}
	if st := j2.State(); len(st.Grades) != 5 {
		t.Fatalf("after withdraw: %d grades", len(st.Grades))
	}
}

func TestJournalOtherBundleAndCorruption(t *testing.T) {
	res := testBundles(t)
	b := res.Bundles[0]
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	fields := adjudication.BundleFields(b)
	for i, f := range fields[:3] {
		if err := j.Append(adjudication.Grade{Field: f, Value: valueFor(f, i)}); err != nil {
			t.Fatal(err)
		}
	}
	mustClose(t, j)
	if _, err := adjudication.Open(path, res.Bundles[1]); !errors.Is(err, adjudication.ReasonJournalBundle) {
		t.Fatalf("other bundle: %v", err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	// Edit a middle entry: the chain breaks at the next line.
	edited := strings.Join(append(append([]string{}, lines[:2]...), append([]string{strings.Replace(lines[2], `"value":"`, `"value":"x`, 1)}, lines[3:]...)...), "")
	os.WriteFile(path, []byte(edited), 0o600)
	if _, err := adjudication.Open(path, b); !errors.Is(err, adjudication.ReasonJournalCorrupt) {
		t.Fatalf("edited middle: %v", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != edited {
		t.Fatal("a corrupt journal was changed")
	}
	// Remove a middle line.
	os.WriteFile(path, []byte(lines[0]+lines[1]+lines[3]), 0o600)
	if _, err := adjudication.Open(path, b); !errors.Is(err, adjudication.ReasonJournalCorrupt) {
		t.Fatalf("removed line: %v", err)
	}
	// A torn final line is cut off; earlier grades stay.
	torn := lines[0] + lines[1] + lines[2] + lines[3][:len(lines[3])/2]
	os.WriteFile(path, []byte(torn), 0o600)
	j3, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	if j3.Recovered() == 0 || len(j3.State().Grades) != 2 {
		t.Fatalf("torn: recovered %d, grades %d", j3.Recovered(), len(j3.State().Grades))
	}
	if err := j3.Append(adjudication.Grade{Field: fields[2], Value: valueFor(fields[2], 2)}); err != nil {
		t.Fatal(err)
	}
	mustClose(t, j3)
	j4, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, j4)
	if len(j4.State().Grades) != 3 {
		t.Fatal("append after torn recovery lost")
	}
}

const (
	childEnv      = "VERDICT_JOURNAL_CRASH_CHILD"
	childBatchEnv = "VERDICT_JOURNAL_CRASH_BATCH"
)

// TestJournalCrashChild is the child process of TestJournalCrash: it
// appends grades forever, printing "saved SEQ FIELD VALUE" after each
// Append returns, until it is killed.
func TestJournalCrashChild(t *testing.T) {
	path := os.Getenv(childEnv)
	if path == "" {
		t.Skip("child process only")
	}
	b := testBundles(t).Bundles[0]
	j, err := adjudication.Open(path, b)
	if err != nil {
		fmt.Println("open-error", err)
		os.Exit(3)
	}
	fields := adjudication.BundleFields(b)
	start := len(j.Entries())
	w := bufio.NewWriter(os.Stdout)
	if os.Getenv(childBatchEnv) != "" {
		// Batch mode: batches of 1..64 grades, each reported saved only
		// after its AppendBatch returned.
		for i, round := start, 0; ; round++ {
			var gs []adjudication.Grade
			for k := 0; k < 1+(round*7)%64; k++ {
				f := fields[(i+k)%len(fields)]
				gs = append(gs, adjudication.Grade{Field: f, Value: valueFor(f, (i+k)/len(fields)+i+k), Note: "round " + strconv.Itoa(i+k)})
			}
			n, err := j.AppendBatch(gs)
			if err != nil || n != len(gs) {
				fmt.Println("append-error", n, err)
				os.Exit(3)
			}
			for k, g := range gs {
				fmt.Fprintf(w, "saved %d %s %s %s\n", i+k, g.Item, g.Kind, g.Target+" "+g.Value)
			}
			w.Flush()
			i += len(gs)
		}
	}
	for i := start; ; i++ {
		f := fields[i%len(fields)]
		v := valueFor(f, i/len(fields)+i)
		if err := j.Append(adjudication.Grade{Field: f, Value: v, Note: "round " + strconv.Itoa(i)}); err != nil {
			fmt.Println("append-error", err)
			os.Exit(3)
		}
		fmt.Fprintf(w, "saved %d %s %s %s\n", i, f.Item, f.Kind, f.Target+" "+v)
		w.Flush()
	}
}

// TestJournalCrash kills a journal writer with SIGKILL at random moments
// and checks that every grade the child reported saved is in the journal
// after reopening (the last saved value of each field is current).
func TestJournalCrash(t *testing.T) { journalCrash(t, false) }

// TestJournalCrashBatch is TestJournalCrash with a child that saves its
// grades through AppendBatch (batches of 1 to 64 grades, one fsync each):
// every grade of a batch that returned survives the kill.
func TestJournalCrashBatch(t *testing.T) { journalCrash(t, true) }

func journalCrash(t *testing.T, batch bool) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	b := testBundles(t).Bundles[0]
	path := filepath.Join(t.TempDir(), "crash.jsonl")
	rng := rand.New(rand.NewPCG(1, 2))
	saved := map[int]string{} // seq -> "item kind target value"
	for round := 0; round < 6; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestJournalCrashChild$", "-test.v=false")
		cmd.Env = append(os.Environ(), childEnv+"="+path)
		if batch {
			cmd.Env = append(cmd.Env, childBatchEnv+"=1")
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1<<16)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// Wait for the first saved grade, then kill after a random delay.
		first := <-lines
		time.Sleep(time.Duration(rng.IntN(40)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		all := []string{first}
		for l := range lines {
			all = append(all, l)
		}
		cmd.Wait()
		for _, l := range all {
			p := strings.SplitN(l, " ", 3)
			if len(p) != 3 || p[0] != "saved" {
				if strings.HasPrefix(l, "saved") || strings.Contains(l, "error") {
					t.Fatalf("child: %q", l)
				}
				continue // test framework chatter or a line cut by the kill
			}
			seq, _ := strconv.Atoi(p[1])
			saved[seq] = p[2]
		}
	}
	j, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, j)
	entries := j.Entries()
	for seq, want := range saved {
		if seq >= len(entries) {
			t.Fatalf("saved grade %d (%s) lost: journal has %d entries", seq, want, len(entries))
		}
		e := entries[seq]
		got := fmt.Sprintf("%s %s %s %s", e.Item, e.Kind, e.Target, e.Value)
		if got != want {
			t.Fatalf("entry %d = %q, want %q", seq, got, want)
		}
	}
	if len(saved) < 6 {
		t.Fatalf("only %d grades saved over 6 rounds", len(saved))
	}
	t.Logf("%d saved grades over 6 kills; journal has %d entries", len(saved), len(entries)-1)
	_ = blinding.Digest
}

// TestJournalAppendBatch saves a batch with one call, stops a batch at its
// first refused grade (the grades before it are saved, none after), keeps
// the hash chain across batches and single appends, and refuses a closed
// journal.
func TestJournalAppendBatch(t *testing.T) {
	b := testBundles(t).Bundles[0]
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := adjudication.Open(path, b, adjudication.WithClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	fields := adjudication.BundleFields(b)
	var gs []adjudication.Grade
	for i, f := range fields[:10] {
		gs = append(gs, adjudication.Grade{Field: f, Value: valueFor(f, i), Spent: 250 * time.Millisecond})
	}
	if n, err := j.AppendBatch(gs); n != 10 || err != nil {
		t.Fatalf("batch: n=%d err=%v", n, err)
	}
	if err := j.Append(adjudication.Grade{Field: fields[10], Value: valueFor(fields[10], 10)}); err != nil {
		t.Fatal(err)
	}
	// A refused grade in the middle: the three before it are saved.
	bad := []adjudication.Grade{
		{Field: fields[11], Value: valueFor(fields[11], 11)},
		{Field: fields[12], Value: valueFor(fields[12], 12)},
		{Field: fields[0], Value: valueFor(fields[0], 1), Note: "superseded in a batch"},
		{Field: fields[13], Value: "nonsense"},
		{Field: fields[14], Value: valueFor(fields[14], 14)},
	}
	n, err := j.AppendBatch(bad)
	if n != 3 || !errors.Is(err, adjudication.ReasonBadValue) {
		t.Fatalf("refused batch: n=%d err=%v", n, err)
	}
	// A batch refused at its first grade writes nothing.
	before, _ := os.ReadFile(path)
	if n, err := j.AppendBatch([]adjudication.Grade{{Field: adjudication.Field{"item-none", adjudication.KindClaim, "C1"}, Value: "wrong"}, bad[4]}); n != 0 ||
		!errors.Is(err, adjudication.ReasonUnknownItem) {
		t.Fatalf("refused first: n=%d err=%v", n, err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a refused batch changed the journal")
	}
	if n, err := j.AppendBatch(nil); n != 0 || err != nil {
		t.Fatalf("empty batch: n=%d err=%v", n, err)
	}
	st := j.State()
	if st.Entries != 14 || len(st.Grades) != 13 || st.Grades[0].Note != "superseded in a batch" {
		t.Fatalf("state: %d entries, %d grades, first %+v", st.Entries, len(st.Grades), st.Grades[0])
	}
	mustClose(t, j)
	if _, err := j.AppendBatch(gs); !errors.Is(err, adjudication.ReasonJournalClosed) {
		t.Fatalf("closed: %v", err)
	}
	// Reopening verifies the chain over batch and single entries alike.
	j2, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, j2)
	es := j2.Entries()
	if len(es) != 15 {
		t.Fatalf("reopened: %d entries", len(es))
	}
	for i, e := range es {
		if e.Seq != i {
			t.Fatalf("entry %d has seq %d", i, e.Seq)
		}
	}
	if got := j2.State().Spent[fields[0].Item]; got < 250*time.Millisecond {
		t.Fatalf("spent %v", got)
	}
}

// TestJournalFinalLineWithoutNewline: a last line that is a complete,
// verifying grade missing only its newline (a file saved by an editor) is
// kept and the newline is added on open; a complete JSON last line that
// breaks the chain is refused as corrupt and left unchanged; a truly torn
// last line is still cut off.
func TestJournalFinalLineWithoutNewline(t *testing.T) {
	res := testBundles(t)
	b := res.Bundles[0]
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := adjudication.Open(path, b, adjudication.WithClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	fields := adjudication.BundleFields(b)
	for i, f := range fields[:3] {
		if err := j.Append(adjudication.Grade{Field: f, Value: valueFor(f, i)}); err != nil {
			t.Fatal(err)
		}
	}
	mustClose(t, j)
	data, _ := os.ReadFile(path)
	noNL := strings.TrimSuffix(string(data), "\n")
	os.WriteFile(path, []byte(noNL), 0o600)
	j2, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	if j2.Recovered() != 0 || len(j2.State().Grades) != 3 {
		t.Fatalf("no final newline: recovered %d, grades %d, want 0 and 3", j2.Recovered(), len(j2.State().Grades))
	}
	if after, _ := os.ReadFile(path); string(after) != string(data) {
		t.Fatalf("the newline was not restored:\n%q", after[max(0, len(after)-40):])
	}
	if err := j2.Append(adjudication.Grade{Field: fields[3], Value: valueFor(fields[3], 3)}); err != nil {
		t.Fatal(err)
	}
	mustClose(t, j2)
	j3, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(j3.State().Grades) != 4 {
		t.Fatalf("after the repair and an append: %d grades, want 4", len(j3.State().Grades))
	}
	mustClose(t, j3)
	// A complete last line that breaks the chain is damage, not a tear.
	lines := strings.SplitAfter(string(data), "\n")
	edited := lines[0] + lines[1] + lines[2] + strings.Replace(strings.TrimSuffix(lines[3], "\n"), `"prev":"`, `"prev":"0`, 1)
	os.WriteFile(path, []byte(edited), 0o600)
	if _, err := adjudication.Open(path, b); !errors.Is(err, adjudication.ReasonJournalCorrupt) {
		t.Fatalf("complete last line breaking the chain: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != edited {
		t.Fatal("a corrupt journal was changed")
	}
	// A torn last line (one byte short of its closing brace) is cut off.
	os.WriteFile(path, []byte(noNL[:len(noNL)-1]), 0o600)
	j4, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, j4)
	if j4.Recovered() == 0 || len(j4.State().Grades) != 2 {
		t.Fatalf("torn: recovered %d, grades %d, want >0 and 2", j4.Recovered(), len(j4.State().Grades))
	}
}

// TestJournalItemFlags: a rater's item flags are journal entries that
// survive closing and reopening and supersede one another, and change
// neither the grades, the item times nor the frozen sheet; a flag is
// never a grade, and a flag entry that is not a valid flag is corruption.
func TestJournalItemFlags(t *testing.T) {
	res := testBundles(t)
	b := res.Bundles[0]
	dir := t.TempDir()
	rate := func(name string, flags bool) (adjudication.State, string) {
		path := filepath.Join(dir, name)
		j, err := adjudication.Open(path, b, adjudication.WithClock(fixedClock()))
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range adjudication.BundleFields(b) {
			if flags && i == 3 {
				for _, fl := range []struct {
					item int
					on   bool
				}{{0, true}, {1, true}, {1, false}, {2, true}} {
					if err := j.SetFlag(b.Items[fl.item].ID, fl.on); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := j.Append(adjudication.Grade{Field: f, Value: valueFor(f, i), Spent: time.Duration(i) * time.Second}); err != nil {
				t.Fatal(err)
			}
		}
		st := j.State()
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		return st, path
	}
	plain, _ := rate("plain.jsonl", false)
	flagged, path := rate("flagged.jsonl", true)
	if !reflect.DeepEqual(plain.Grades, flagged.Grades) || !reflect.DeepEqual(plain.Ungraded, flagged.Ungraded) || !reflect.DeepEqual(plain.Spent, flagged.Spent) {
		t.Fatal("item flags changed the journal's grades or item times")
	}
	k := key(t, "rater-ann")
	var sheets [][]byte
	for _, st := range []adjudication.State{plain, flagged} {
		sh, err := adjudication.NewSheet(b, blinding.Digest(res.BundleBytes[0]), strings.Repeat("a", 64), st, "ann", adjudication.RoleRater, k.PublicKey(), t0)
		if err != nil {
			t.Fatal(err)
		}
		data, err := blinding.MarshalCanonical(sh)
		if err != nil {
			t.Fatal(err)
		}
		sheets = append(sheets, data)
	}
	if !bytes.Equal(sheets[0], sheets[1]) {
		t.Fatal("item flags changed the frozen sheet")
	}

	// Resume: the flags are back; item 1's flag was cleared.
	j, err := adjudication.Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{b.Items[0].ID: true, b.Items[2].ID: true}
	if got := j.Flags(); !reflect.DeepEqual(got, want) {
		t.Fatalf("resumed flags %v, want %v", got, want)
	}
	if err := j.SetFlag("item-0000000000000000", true); !errors.Is(err, adjudication.ReasonUnknownItem) {
		t.Fatalf("flag on an unknown item: %v", err)
	}
	flagAsGrade := adjudication.Grade{Field: adjudication.Field{Item: b.Items[0].ID, Kind: adjudication.KindItemFlag}, Value: adjudication.ValueFlagged}
	if err := j.Append(flagAsGrade); err == nil {
		t.Fatal("a flag was accepted as a grade")
	}
	j.Close()

	// A flag entry carrying a note, or another value, is corruption.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, edit := range []struct{ old, new string }{
		{`"kind":"item_flag","value":"flagged"`, `"kind":"item_flag","value":"yes"`},
		{`"kind":"item_flag","value":"flagged"`, `"kind":"item_flag","value":"flagged","note":"x"`},
	} {
		if !strings.Contains(string(data), edit.old) {
			t.Fatalf("journal has no %s:\n%s", edit.old, data)
		}
		// Only the last line is edited so that the chain itself holds.
		lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
		last := -1
		for i, l := range lines {
			if strings.Contains(l, edit.old) {
				last = i
			}
		}
		lines[last] = strings.Replace(lines[last], edit.old, edit.new, 1)
		bad := filepath.Join(dir, "bad.jsonl")
		if err := os.WriteFile(bad, []byte(strings.Join(lines[:last+1], "")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if j, err := adjudication.Open(bad, b); !errors.Is(err, adjudication.ReasonJournalCorrupt) {
			if err == nil {
				j.Close()
			}
			t.Fatalf("%s: %v, want %s", edit.new, err, adjudication.ReasonJournalCorrupt)
		}
	}
}
