package pipeline_test

import (
	"errors"
	"path/filepath"
	"testing"
	"testing/fstest"

	"verdict/adjudication"
	"verdict/fixtures"
	"verdict/pipeline"
	"verdict/verr"
)

func TestCheckEmbeddedCampaign(t *testing.T) {
	t.Parallel()
	ch := pipeline.Check(fixtures.Campaign())
	if len(ch.Refusals) > 0 || ch.Campaign == nil || ch.Admission == nil {
		t.Fatalf("embedded campaign refused: %v", ch.Refusals)
	}
	if got := ch.Counts.ResponsesValid + ch.Counts.ResponsesFailed + ch.Counts.ResponsesAbsent; got != len(ch.Campaign.Sessions) {
		t.Errorf("counts cover %d sessions, want %d", got, len(ch.Campaign.Sessions))
	}
	if !ch.Admission.Admitted() || len(ch.Admission.Failures()) != 0 {
		t.Errorf("embedded campaign not admitted: %v", ch.Admission.Failures())
	}
}

func TestCheckRefusedCampaignHasNoAdmission(t *testing.T) {
	t.Parallel()
	ch := pipeline.Check(fstest.MapFS{})
	if len(ch.Refusals) == 0 || ch.Admission != nil || ch.Campaign != nil {
		t.Fatalf("empty campaign: refusals %v, admission %v", ch.Refusals, ch.Admission)
	}
	var ce *verr.Error
	if !errors.As(ch.Refusals[0], &ce) {
		t.Errorf("refusal %v is not a *verr.Error", ch.Refusals[0])
	}
}

func TestScoreRefusesMissingAllowedSigners(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := pipeline.Score(fixtures.Campaign(), pipeline.RatingsIn(dir, fixtures.RatingsAllowedSigners(dir)), pipeline.ScoreOptions{})
	if !errors.Is(err, adjudication.ReasonAllowedSignersMissing) {
		t.Fatalf("score without allowed_signers: %v, want %s", err, adjudication.ReasonAllowedSignersMissing)
	}
	var ce *verr.Error
	if !errors.As(err, &ce) || ce.File != filepath.Join(dir, "allowed_signers") {
		t.Errorf("refusal %v does not name allowed_signers", err)
	}
}

func TestAdmitDirMissing(t *testing.T) {
	t.Parallel()
	res := pipeline.AdmitDir(filepath.Join(t.TempDir(), "absent"), nil)
	if res.Admission != nil || len(res.Refusals) != 1 || !errors.Is(res.Refusals[0], verr.Reason("file-missing")) {
		t.Fatalf("absent directory: %+v", res)
	}
}
