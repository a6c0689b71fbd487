// Package campaigntest generates SYNTHETIC campaign directories in memory
// for the tests and benchmarks of the campaign loader and of `verdict
// check`, from one template: every task has a six-item evidence packet over
// six whole source files and four obligations, and each run has a draft,
// two reviews, their responses and receipts, all bound by the manifest.
//
// It is test support only (it takes a testing.TB and reads the campaign
// package's testdata); the campaign package's own tests that use it are in
// package campaign_test, so there is no import cycle.
package campaigntest
