package campaign

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"verdict/internal/par"
	"verdict/verr"
)

// Rule names cited by Load's refusals.
const (
	RuleFileIdentity = "CONTRACT §7 execution manifest binds every file"
	RuleAuthenticity = "CONTRACT §3 packet identity and authenticity"
	RuleSchemaBind   = "PROMPTS.md Exact response contract: schema digest in the execution freeze"
)

// Reasons of Load (campaign identity, file binding and packet authenticity).
const (
	// ReasonContractVersion: the manifest's contract_version is not ContractVersion.
	ReasonContractVersion verr.Reason = "contract-version"
	// ReasonSchemaDigest: response_schema_sha256 is not the embedded response schema's SHA-256.
	ReasonSchemaDigest verr.Reason = "schema-digest"
	// ReasonFileMissing: a file the campaign needs (or the manifest binds) is absent.
	ReasonFileMissing verr.Reason = "file-missing"
	// ReasonFileDigest: a bound file's bytes do not hash to the manifest's SHA-256.
	ReasonFileDigest verr.Reason = "file-digest"
	// ReasonFileUnlisted: a file under tasks/, responses/, receipts/,
	// sources/ or prompts/ is not bound in the manifest, or a needed file is not bound.
	ReasonFileUnlisted verr.Reason = "file-unlisted"
	// ReasonOrphanFile: a response or receipt file belongs to no manifest session.
	ReasonOrphanFile verr.Reason = "orphan-file"
	// ReasonTaskMismatch: a packet or truth file names another task than its directory.
	ReasonTaskMismatch verr.Reason = "task-mismatch"
	// ReasonRepositoryMismatch: an evidence item's repository is not its task's repository.
	ReasonRepositoryMismatch verr.Reason = "repository-mismatch"
	// ReasonSourceDigest: the whole source file does not hash to the item's file_sha256.
	ReasonSourceDigest verr.Reason = "source-digest"
	// ReasonExcerptLines: an excerpt does not hold exactly end−start+1 physical lines.
	ReasonExcerptLines verr.Reason = "excerpt-lines"
	// ReasonLineBeyondFile: an item's end line is after the source file's last physical line.
	ReasonLineBeyondFile verr.Reason = "line-beyond-file"
	// ReasonExcerptMismatch: an excerpt is not byte-identical to lines start..end of its source.
	ReasonExcerptMismatch verr.Reason = "excerpt-mismatch"
	// ReasonResponseMissing: a receipt records a response but the raw response file is absent.
	ReasonResponseMissing verr.Reason = "response-missing"
)

// boundDirs are the directories every file of which the manifest must bind.
var boundDirs = []string{TasksDir, ResponsesDir, ReceiptsDir, SourcesDir, PromptsDir}

// loader holds the state of one Load.
type loader struct {
	fsys  fs.FS
	mu    sync.Mutex // guards errs while sessions load concurrently
	errs  []*verr.Error
	files map[string][]byte // bound files that exist and hash correctly (not session files)
	bound map[string]bool   // every path the manifest binds
	// deferred maps each bound response and receipt file to its index in
	// manifest.files: it is read and hashed by the session worker that
	// decodes it (in parallel, and never held beyond its session), or after
	// the sessions when no session claims it.
	deferred map[string]int
	manifest *Manifest
	dec      decoder // how each file is decided (LoadOptions)
	// dirs are the bound directories of the campaign's design (boundDirs
	// when nil; systemBoundDirs for a system comparison).
	dirs []string
}

func (l *loader) add(e *verr.Error) {
	if e != nil {
		l.mu.Lock()
		l.errs = append(l.errs, e)
		l.mu.Unlock()
	}
}

func (l *loader) addErr(err error) {
	var e *verr.Error
	if errors.As(err, &e) {
		l.add(e)
	} else if err != nil {
		l.add(&verr.Error{Reason: ReasonSchema, Detail: err.Error(), Err: err})
	}
}

func (l *loader) refuse(r verr.Reason, file, pointer, rule, format string, a ...any) {
	l.add(verr.Newf(r, file, pointer, rule, format, a...))
}

// need returns the bytes of a bound file, refusing it when it is unbound
// (and exists) or missing.
func (l *loader) need(path string) ([]byte, bool) {
	if b, ok := l.files[path]; ok {
		return b, true
	}
	if !l.bound[path] {
		if _, err := fs.Stat(l.fsys, path); err != nil {
			l.refuseUnreadable(err, ReasonFileMissing, path, RuleFileIdentity, "the file is missing and not bound in the manifest")
		} else if dir, _, _ := strings.Cut(path, "/"); !slices.Contains(l.boundDirs(), dir) {
			l.refuse(ReasonFileUnlisted, path, "", RuleFileIdentity, "the file is not bound by SHA-256 in the manifest")
		} // files under the bound directories were refused by the walk
	}
	return nil, false // bound but missing or mismatched: already refused
}

// Load strictly loads the campaign rooted at fsys (CONTRACT §2–§5, §7):
// manifest.json (DecodeManifest), its contract version, the response
// schema digest binding, the SHA-256 of every bound file (a mismatch, a
// missing bound file, or an unbound file under tasks/, responses/,
// receipts/, sources/ or prompts/ is refused), the prompts, each task's
// text, packet and truth, packet authenticity against the whole source
// files under sources/<repository>/<path> (exact physical line counts, file
// SHA-256, byte-identical excerpt lines), and every session's receipt and
// response.
//
// A malformed, empty or refused model answer is not a refusal: the session
// gets Failure (the *Error) and Response nil, a valid scored failure
// (EVALUATOR-CONTROLS C16). A B answer whose final answer is valid but
// whose reconciliation record is refused keeps Response (the final, with
// Reconciliation nil) and gets LedgerFailure (DecodeAnswer, CONTRACT §4). Response bytes are not kept: Session.RawSHA256
// and RawSize identify them (Campaign.RawResponse reads them again). An
// absent response file leaves RawSHA256 empty; it is
// refused only when the receipt records status "response". An absent
// receipt leaves Receipt nil (admission decides, C15); a malformed receipt
// is a refusal.
//
// On refusal Load returns nil and errors.Join of every *Error found,
// sorted by file, pointer and reason.
func Load(fsys fs.FS) (*Campaign, error) { return LoadWith(fsys, LoadOptions{}) }

// LoadOptions choose how Load decides each file; the zero value is Load's.
type LoadOptions struct {
	// ReferenceOnly decides the strict JSON layer and the schema of every
	// file with the reference validator alone (the strict tree and
	// santhosh-tekuri/jsonschema), without the fast accept pass: slower,
	// and the same campaign and the same refusals. It is for an auditor
	// who wants every file decided by the independent validator.
	ReferenceOnly bool
}

// decoder is the decoder the options choose.
func (o LoadOptions) decoder() decoder { return decoder{reference: o.ReferenceOnly} }

// LoadWith is Load with options.
func LoadWith(fsys fs.FS, opts LoadOptions) (*Campaign, error) {
	l := &loader{fsys: fsys, files: map[string][]byte{}, bound: map[string]bool{}, deferred: map[string]int{}, dec: opts.decoder()}
	c := l.load()
	if len(l.errs) > 0 {
		return nil, l.joined()
	}
	return c, nil
}

func (l *loader) joined() error {
	slices.SortStableFunc(l.errs, func(a, b *verr.Error) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if c := comparePointers(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		return strings.Compare(string(a.Reason), string(b.Reason))
	})
	l.errs = slices.CompactFunc(l.errs, func(a, b *verr.Error) bool {
		return a.Reason == b.Reason && a.File == b.File && a.Pointer == b.Pointer && a.Detail == b.Detail
	})
	errs := make([]error, len(l.errs))
	for i, e := range l.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// readManifest reads manifest.json (bounded, regular file); false with
// the refusal recorded when it cannot.
func (l *loader) readManifest() ([]byte, bool) {
	raw, err := ReadRegularFS(l.fsys, ManifestFile, FileManifest)
	if e, ok := asRefusal(err); ok {
		l.add(e)
		return nil, false
	}
	if err != nil {
		l.refuseUnreadable(err, ReasonFileMissing, ManifestFile, RuleManifest, "cannot read the manifest: %v", err)
		return nil, false
	}
	return raw, true
}

func (l *loader) load() *Campaign {
	raw, ok := l.readManifest()
	if !ok {
		return nil
	}
	m, err := l.dec.manifest(raw, ManifestFile)
	if err != nil {
		l.addErr(err)
		return nil
	}
	if m.ContractVersion != ContractVersion {
		l.refuse(ReasonContractVersion, ManifestFile, "/contract_version", RuleManifest,
			"contract version %q is not %q", m.ContractVersion, ContractVersion)
	}
	if want := ResponseSchemaSHA256(); m.ResponseSchemaSHA256 != want {
		l.refuse(ReasonSchemaDigest, ManifestFile, "/response_schema_sha256", RuleSchemaBind,
			"manifest binds response schema %s, the embedded schema is %s", m.ResponseSchemaSHA256, want)
	}
	l.bindFiles(m)
	sum := sha256.Sum256(raw)
	c := &Campaign{Manifest: *m, ManifestSHA256: hex.EncodeToString(sum[:]), Prompts: map[string][]byte{}, fsys: l.fsys}
	for _, p := range []struct{ key, path string }{
		{PromptCommon, m.Prompts.Common}, {PromptDraft, m.Prompts.Draft},
		{PromptReviewA, m.Prompts.ReviewA}, {PromptReviewB, m.Prompts.ReviewB},
		{PromptFinalSchema, m.Prompts.FinalSchema}, {PromptReconciliationSchema, m.Prompts.ReconciliationSchema}} {
		if b, ok := l.need(p.path); ok {
			c.Prompts[p.key] = b
		}
	}
	// Rating guidelines: optional, but never present and unbound.
	if l.bound[GuidelinesFile] {
		if b, ok := l.need(GuidelinesFile); ok {
			if !utf8.Valid(b) {
				l.refuse(ReasonInvalidUTF8, GuidelinesFile, "", RuleFileIdentity, "the rating guidelines are not valid UTF-8")
			} else {
				c.Guidelines = b
			}
		}
	} else if _, err := fs.Stat(l.fsys, GuidelinesFile); err == nil {
		l.refuse(ReasonFileUnlisted, GuidelinesFile, "", RuleFileIdentity, "the rating guidelines are not bound by SHA-256 in the manifest")
	}
	// Tasks load independently (packets, truth, source authenticity); the
	// slice keeps manifest order.
	c.Tasks = make([]*Task, len(m.Tasks))
	par.For(len(m.Tasks), func(_, i int) { c.Tasks[i] = l.loadTask(m.Tasks[i], ptr("/tasks", i)) })
	if len(c.Tasks) == 0 {
		c.Tasks = nil
	}
	type job struct {
		id   string
		role Role
		run  Run
	}
	var jobs []job
	sessions := map[string]bool{}
	for _, run := range m.Runs {
		for _, s := range []struct {
			id   string
			role Role
		}{{run.Sessions.Draft, RoleDraft}, {run.Sessions.ReviewA, RoleReviewA}, {run.Sessions.ReviewB, RoleReviewB}} {
			sessions[s.id] = true
			jobs = append(jobs, job{s.id, s.role, run})
		}
	}
	// Sessions decode independently; results keep run order and refusals
	// are sorted at the end, so the outcome does not depend on scheduling.
	c.Sessions = make([]*Session, len(jobs))
	par.For(len(jobs), func(_, i int) { c.Sessions[i] = l.loadSession(jobs[i].id, jobs[i].role, jobs[i].run) })
	// Bound response and receipt files no session read (orphans) are
	// still read and hashed, in manifest order.
	// A session claims ResponsePath(id) and ReceiptPath(id): a bound
	// file under responses/ or receipts/ named <id>.json for a session id
	// of the manifest (session IDs hold no slash).
	// Refusals are sorted at the end, so one pass does both.
	for i, f := range m.Files {
		dir, name, _ := strings.Cut(f.Path, "/")
		if dir != ResponsesDir && dir != ReceiptsDir {
			continue
		}
		id, isJSON := strings.CutSuffix(name, ".json")
		if _, ok := l.deferred[f.Path]; ok && !(isJSON && sessions[id]) {
			l.readBound(f.Path, i)
		}
		if !sessions[id] {
			l.refuse(ReasonOrphanFile, f.Path, "", RuleFileIdentity, "the file belongs to no session of the manifest")
		}
	}
	return c
}

// bindFiles hashes every bound file and refuses unbound files under the
// bound directories. Response and receipt files are hashed later, by the
// session that reads them (sessionFile), with the same refusals.
func (l *loader) bindFiles(m *Manifest) {
	l.manifest = m
	var now []int // manifest.files indices read and hashed here
	for i, f := range m.Files {
		l.bound[f.Path] = true
		if dir, _, _ := strings.Cut(f.Path, "/"); dir == ResponsesDir || dir == ReceiptsDir {
			if _, dup := l.deferred[f.Path]; !dup {
				l.deferred[f.Path] = i
			}
			continue
		}
		now = append(now, i)
	}
	// The files are read and hashed in parallel, and the bound
	// directories walked beside them; refusals are sorted at the end and
	// the files are kept in manifest order, so the outcome does not
	// depend on scheduling.
	data := make([][]byte, len(now))
	ok := make([]bool, len(now))
	var walk sync.WaitGroup
	walk.Go(l.walkBound)
	par.For(len(now), func(_, k int) { data[k], ok[k] = l.readBound(m.Files[now[k]].Path, now[k]) })
	walk.Wait()
	for k, i := range now {
		if ok[k] {
			l.files[m.Files[i].Path] = data[k]
		}
	}
}

// boundDirs returns the bound directories of the campaign's design.
func (l *loader) boundDirs() []string {
	if l.dirs == nil {
		return boundDirs
	}
	return l.dirs
}

// walkBound refuses every file under the bound directories that the
// manifest does not bind.
func (l *loader) walkBound() {
	for _, dir := range l.boundDirs() {
		err := fs.WalkDir(l.fsys, dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && path == dir {
					return nil
				}
				return err
			}
			if !d.IsDir() && !l.bound[path] {
				l.refuse(ReasonFileUnlisted, path, "", RuleFileIdentity, "the file is not bound by SHA-256 in the manifest")
			}
			return nil
		})
		if err != nil {
			l.refuseUnreadable(err, ReasonFileMissing, dir, RuleFileIdentity, "cannot list the directory: %v", err)
		}
	}
}

// readBound reads the bound file path (manifest.files index i) and checks
// its SHA-256; it refuses a file that cannot be read (ReasonFileMissing) or
// does not hash to the manifest's digest (ReasonFileDigest).
func (l *loader) readBound(path string, i int) ([]byte, bool) {
	return l.readBoundInto(path, i, nil)
}

// readBoundInto is readBound reading into buf when the file system can
// (bufferedFS) and buf is large enough.
func (l *loader) readBoundInto(path string, i int, buf []byte) ([]byte, bool) {
	b, err := readInto(l.fsys, path, buf)
	if e, ok := asRefusal(err); ok {
		l.add(e)
		return nil, false
	}
	if err != nil {
		l.refuseUnreadable(err, ReasonFileMissing, path, RuleFileIdentity,
			"the manifest binds this file at manifest.json#%s but it cannot be read", ptr("/files", i))
		return nil, false
	}
	sum := sha256.Sum256(b)
	if got, want := hex.EncodeToString(sum[:]), l.manifest.Files[i].SHA256; got != want {
		l.refuse(ReasonFileDigest, path, "", RuleFileIdentity,
			"the file hashes to %s, the manifest binds %s", got, want)
		return nil, false
	}
	return b, true
}

// sessionFile returns the bytes of a session's bound response or receipt
// file, read and hashed now (readBound); false when it is not bound or was
// refused.
func (l *loader) sessionFile(path string, buf []byte) ([]byte, bool) {
	i, ok := l.deferred[path]
	if !ok {
		return nil, false
	}
	return l.readBoundInto(path, i, buf)
}

// sessionBuffers holds read buffers of session files: the bytes of a
// response or receipt are not kept after decoding (Session.RawSHA256 and
// RawSize identify them), so a buffer is reused for the next file once its
// file decoded without error (a refusal may keep a reference to them).
var sessionBuffers = sync.Pool{New: func() any { return new([]byte) }}

func (l *loader) loadTask(entry TaskEntry, manifestPtr string) *Task {
	t := &Task{Entry: entry}
	if b, ok := l.need(TaskTextPath(entry.ID)); ok {
		t.Text = b
	}
	packetOK := false
	if b, ok := l.need(PacketPath(entry.ID)); ok {
		p, err := l.dec.packet(b, PacketPath(entry.ID))
		if err != nil {
			l.addErr(err)
		} else {
			t.Packet = *p
			packetOK = true
			if p.Task != entry.ID {
				l.refuse(ReasonTaskMismatch, PacketPath(entry.ID), "/task", RulePacket,
					"packet names task %s, its directory is task %s", p.Task, entry.ID)
			}
			l.checkPacket(entry, p)
		}
	}
	if b, ok := l.need(TruthPath(entry.ID)); ok {
		tr, err := l.dec.truth(b, TruthPath(entry.ID))
		if err != nil {
			l.addErr(err)
		} else {
			t.Truth = *tr
			if tr.Task != entry.ID {
				l.refuse(ReasonTaskMismatch, TruthPath(entry.ID), "/task", RuleTruth,
					"truth names task %s, its directory is task %s", tr.Task, entry.ID)
			}
			if packetOK {
				ids := map[string]bool{}
				for _, it := range t.Packet.Items {
					ids[it.ID] = true
				}
				for i, o := range tr.Obligations {
					for j, e := range o.EvidenceIDs {
						if !ids[e] {
							l.refuse(ReasonUnknownEvidence, TruthPath(entry.ID),
								ptr(ptr("/obligations", i)+"/evidence_ids", j), RuleTruth,
								"obligation %s names %s, which packet %s lacks", o.ID, e, PacketPath(entry.ID))
						}
					}
				}
			}
		}
	}
	return t
}

// checkPacket checks each evidence item's authenticity against its source file.
func (l *loader) checkPacket(entry TaskEntry, p *Packet) {
	file := PacketPath(entry.ID)
	for i, it := range p.Items {
		ip := ptr("/items", i)
		if it.Repository != entry.Repository {
			l.refuse(ReasonRepositoryMismatch, file, ip+"/repository", RuleAuthenticity,
				"item %s is from %s, task %s investigates %s", it.ID, it.Repository, entry.ID, entry.Repository)
		}
		want := it.EndLine - it.StartLine + 1
		if got := CountPhysicalLines([]byte(it.Excerpt)); got != want {
			l.refuse(ReasonExcerptLines, file, ip+"/excerpt", RuleAuthenticity,
				"excerpt holds %d physical lines, lines %d-%d need %d", got, it.StartLine, it.EndLine, want)
			continue
		}
		src := SourcePath(it.Repository, it.Path)
		b, ok := l.need(src)
		if !ok {
			continue
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); got != it.FileSHA256 {
			l.refuse(ReasonSourceDigest, file, ip+"/file_sha256", RuleAuthenticity,
				"%s hashes to %s, the item binds %s", src, got, it.FileSHA256)
			continue
		}
		lines := PhysicalLines(b)
		if it.EndLine > len(lines) {
			l.refuse(ReasonLineBeyondFile, file, ip+"/end_line", RuleAuthenticity,
				"end line %d is after the last physical line %d of %s (a final newline makes no line)", it.EndLine, len(lines), src)
			continue
		}
		start, end := lines[it.StartLine-1], lines[it.EndLine-1]
		ex := []byte(it.Excerpt)
		if !bytes.Equal(ex, b[start.Start:end.End]) && !bytes.Equal(ex, b[start.Start:end.Next]) {
			l.refuse(ReasonExcerptMismatch, file, ip+"/excerpt", RuleAuthenticity,
				"excerpt is not byte-identical to lines %d-%d of %s", it.StartLine, it.EndLine, src)
		}
	}
}

func (l *loader) loadSession(id string, role Role, run Run) *Session {
	s := &Session{ID: id, Role: role, Run: run}
	buf := sessionBuffers.Get().(*[]byte)
	reuse := true
	rp := ReceiptPath(id)
	if b, ok := l.sessionFile(rp, *buf); ok {
		*buf = b
		rc, err := l.dec.receipt(b, rp)
		if err != nil {
			l.addErr(err)
			reuse = false
		} else {
			s.Receipt = rc // its identity against the run is an admission rule (scorer)
		}
	}
	sp := ResponsePath(id)
	if !reuse {
		buf = new([]byte)
	}
	if b, ok := l.sessionFile(sp, *buf); ok {
		*buf = b
		// The bytes are released after decoding; the bound digest
		// identifies them (Campaign.RawResponse reads them again).
		s.RawSHA256, s.RawSize = l.manifest.Files[l.deferred[sp]].SHA256, len(b)
		resp, ledger, err := l.dec.answer(b, sp, role)
		if err != nil {
			var e *verr.Error
			errors.As(err, &e)
			s.Failure = e
			reuse = false
		} else {
			s.Response, s.LedgerFailure = resp, ledger
			reuse = ledger == nil
		}
	} else if !l.bound[sp] && s.Receipt != nil && s.Receipt.Status == StatusResponse {
		l.refuse(ReasonResponseMissing, sp, "", RuleReceipt,
			"receipt %s records status response but the raw response file is absent", rp)
	}
	if reuse && cap(*buf) <= 1<<20 {
		sessionBuffers.Put(buf)
	}
	return s
}

// Line is one physical line of a file: bytes [Start, End) without its line
// break; Next is the offset after the break (End when the line has none).
type Line struct{ Start, End, Next int }

// PhysicalLines splits b into physical lines: "\n" and "\r\n" each end a
// line, and a final line break does not create an extra line
// (EVALUATOR-CONTROLS C09). An empty file has no lines.
func PhysicalLines(b []byte) []Line {
	out := make([]Line, 0, bytes.Count(b, []byte{'\n'})+1)
	start := 0
	for start < len(b) {
		i := bytes.IndexByte(b[start:], '\n')
		if i < 0 {
			out = append(out, Line{start, len(b), len(b)})
			break
		}
		end := start + i
		if end > start && b[end-1] == '\r' {
			end--
		}
		out = append(out, Line{start, end, start + i + 1})
		start += i + 1
	}
	return out
}

// CountPhysicalLines returns len(PhysicalLines(b)) without allocating.
func CountPhysicalLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
