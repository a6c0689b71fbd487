package scorer

import (
	"io/fs"
	"path"
	"strconv"

	"verdict/campaign"
	"verdict/verr"
)

// Reason codes of a system-comparison review's citation findings. Each
// fails the review's source gate (CONTRACT §4 "Every asserted citation
// must name an existing packet/source span"; PROMPTS.md packet procedure
// "Final citations still require real source support visible in the
// returned observation, checked by the scorer against the frozen
// repository").
const (
	// ReasonCitationNotInRepository: a citation's path is not a file of
	// the frozen repository snapshot at the task's commit, or its
	// start_line..end_line is not inside that file's physical lines (a
	// final line break makes no extra line: EVALUATOR-CONTROLS C09).
	ReasonCitationNotInRepository verr.Reason = "citation-not-in-repository"

	// ReasonCitationNotVisible: the frozen repository's text of a cited
	// span is not visible in the observation the citation names (its
	// returned response bytes, or one JSON string value of them), or the
	// span holds no nonblank line to see. Provider-declared coordinates
	// and the investigator's draft support nothing on their own.
	ReasonCitationNotVisible verr.Reason = "citation-not-visible"
)

// ruleCitationSupport is the rule a citation finding names.
const ruleCitationSupport = "PROMPTS.md packet procedure (final citations visible in the returned observation, checked against the frozen repository)"

// CitationSupport checks every citation of a system-comparison review's
// final answer (PROMPTS.md packet procedure): its evidence ID names an
// item of the workflow's delivered raw-observation packet
// (ReasonEvidenceNotInPacket), its path and lines lie in the frozen
// repository (ReasonCitationNotInRepository), and the repository's text
// of those lines is visible in that item's returned observation: every
// nonblank line, trimmed of surrounding white space, occurs in order in
// the response bytes or in one JSON string value of them
// (ReasonCitationNotVisible). Visibility is the same as PacketSupport's,
// but per cited item: text seen in another observation does not support a
// citation of this one. source returns a repository-relative file of the
// frozen repository snapshot. The findings are in citation order, at most
// one a citation, each naming file (the review's response) and the
// citation's JSON pointer; an error only when the packet is unreadable.
func CitationSupport(final *campaign.Final, packet *campaign.ObservationPacket, file string, source func(path string) ([]byte, bool)) ([]*verr.Error, error) {
	var out []*verr.Error
	if final == nil || len(final.Citations) == 0 {
		return out, nil
	}
	items := map[string]int{}
	var texts [][][]byte
	if packet != nil && packet.Status == campaign.PacketDelivered {
		for i, it := range packet.Items {
			items[it.ID] = i
		}
		var err error
		if texts, err = observationTexts(packet); err != nil {
			return nil, err
		}
	}
	for i, c := range final.Citations {
		p := "/final/citations/" + strconv.Itoa(i)
		k, ok := items[c.EvidenceID]
		if !ok {
			out = append(out, verr.Newf(ReasonEvidenceNotInPacket, file, p+"/evidence_id", ruleCitationSupport,
				"citation evidence ID %s is not an item of the workflow's returned observation packet", c.EvidenceID))
			continue
		}
		data, inRepo := source(c.Path)
		if !inRepo {
			out = append(out, verr.Newf(ReasonCitationNotInRepository, file, p+"/path", ruleCitationSupport,
				"citation of %s names %q, which is not a file of the frozen repository", c.EvidenceID, c.Path))
			continue
		}
		lines, inFile := visibleSpan(data, campaign.SourceRef{Path: c.Path, StartLine: c.StartLine, EndLine: c.EndLine})
		if !inFile {
			out = append(out, verr.Newf(ReasonCitationNotInRepository, file, p+"/end_line", ruleCitationSupport,
				"citation of %s names %s lines %d-%d, outside the frozen file's %d physical lines", c.EvidenceID, c.Path, c.StartLine, c.EndLine,
				campaign.CountPhysicalLines(data)))
			continue
		}
		switch {
		case len(lines) == 0:
			out = append(out, verr.Newf(ReasonCitationNotVisible, file, p, ruleCitationSupport,
				"citation of %s names %s lines %d-%d, which hold no nonblank line to see", c.EvidenceID, c.Path, c.StartLine, c.EndLine))
		case !visibleIn(lines, texts[k]):
			out = append(out, verr.Newf(ReasonCitationNotVisible, file, p, ruleCitationSupport,
				"%s lines %d-%d of the frozen repository are not visible in observation %s as it was returned", c.Path, c.StartLine, c.EndLine, c.EvidenceID))
		}
	}
	return out, nil
}

// RepositorySource returns the reader of one task repository's frozen
// snapshot under sources/<repository>/ of a system-comparison campaign's
// files: the bytes of a repository-relative path, false for a path that
// is not a valid relative path (no "..", no leading "/") or not a file
// there.
func RepositorySource(fsys fs.FS, repository string) func(string) ([]byte, bool) {
	return func(p string) ([]byte, bool) {
		if !fs.ValidPath(p) || p == "." {
			return nil, false
		}
		b, err := fs.ReadFile(fsys, path.Join(campaign.SourcesDir, repository, p))
		return b, err == nil
	}
}

// SystemCitationFindings checks the citations of every answered review of
// a loaded system-comparison campaign (CitationSupport) against its
// workflow's packet and its task's frozen repository in fsys, in workflow
// order. Each finding fails that review's source gate when it is scored.
func SystemCitationFindings(c *campaign.SystemCampaign, fsys fs.FS) ([]*verr.Error, error) {
	var out []*verr.Error
	for _, w := range c.Workflows {
		found, err := workflowCitationFindings(c, fsys, w)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// workflowCitationFindings is CitationSupport for one workflow's review;
// none when the review has no answer, its packet was not delivered (an
// investigation-stage failure: the review is not scored) or its task is
// unknown.
func workflowCitationFindings(c *campaign.SystemCampaign, fsys fs.FS, w *campaign.SystemWorkflow) ([]*verr.Error, error) {
	t := c.Task(w.Workflow.Task)
	if w.Review.Response == nil || w.Packet == nil || w.Packet.Status != campaign.PacketDelivered || t == nil {
		return nil, nil
	}
	return CitationSupport(&w.Review.Response.Final, w.Packet, campaign.ResponsePath(w.Review.ID), RepositorySource(fsys, t.Entry.Repository))
}
