package main

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/serve"
)

func newServeCmd(a *app) *cobra.Command {
	var listen, hostKey, allowed, host string
	var takeover time.Duration
	c := &cobra.Command{
		Use:   "serve RATINGS-DIR [--listen ADDR] [--host-key FILE] --allowed-signers FILE",
		Short: "Serve the rate, adjudicate and status screens over SSH (raters on other machines)",
		Long: `serve runs an SSH server on RATINGS-DIR, the directory verdict blind --out
wrote (with the sealed map written elsewhere by --map-out). Each connection
gets one screen, chosen by the key it authenticates with (public-key
authentication only): the allowed_signers line of that key names the person
(its principal) and the role (its namespaces= option), exactly as signing
checks them (allowed_signers: --allowed-signers, else the config key
allowed_signers, never a file in RATINGS-DIR; allowed-signers-missing
without either). verdict-rating: the rate program on bundle-<principal>.json only;
verdict-adjudication: the adjudicate program once both sheets are frozen (a
waiting screen before); verdict-reveal: the coordinator's status screen.
Every other SSH request (exec, SFTP and other subsystems, port forwarding,
passwords) is refused; a refused key or person gets one line and no screen.

Grades and decisions go to the journals and decision log in RATINGS-DIR,
written and fsync'd as verdict rate and verdict adjudicate write them: a
dropped connection or a killed server loses no saved grade, and connecting
again resumes. Freezing a sheet and signing the adjudication ask the
person's forwarded SSH agent (ssh -A) to sign with the key they connected
with, in the record's namespace; without agent forwarding, grading works
and signing is refused with the command to reconnect. One connection per
person: a second one is refused with the holder's address, unless the
first has sent nothing for --takeover-after, in which case it is ended and
the new one takes its place.

serve refuses to start (exit 1) when RATINGS-DIR holds a sealed map (the
rule of blind --map-out), a campaign (manifest.json), a reveal record or a
private key, or no bundle. The host key (--host-key, default
verdict_serve_host_ed25519 beside RATINGS-DIR) is created with mode 0600
when missing; its fingerprint is printed at start for raters to compare
with what ssh shows them. serve runs until interrupted (ctrl+c, SIGTERM).`,
		Args: cobra.ExactArgs(1),
	}
	c.Flags().StringVar(&listen, "listen", ":2222", "TCP address to listen on")
	c.Flags().StringVar(&hostKey, "host-key", "", "SSH host key file, created (ed25519, mode 0600) when missing (default: verdict_serve_host_ed25519 beside RATINGS-DIR)")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file naming every rater, the adjudicator and the coordinator (required; never read from RATINGS-DIR)")
	c.Flags().StringVar(&host, "host", "", "host name raters type, shown in the reconnect command (default: the address they connected to)")
	c.Flags().DurationVar(&takeover, "takeover-after", serve.DefaultTakeoverAfter, "a person's second connection takes over the first once the first has sent nothing for this long")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		dir := args[0]
		layout, err := serve.CheckServedDir(dir)
		if err != nil {
			return refusal(a, err)
		}
		as, err := servedAllowed(a, allowed, layout)
		if err != nil {
			return err
		}
		if hostKey == "" {
			abs, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			hostKey = filepath.Join(filepath.Dir(abs), "verdict_serve_host_ed25519")
		}
		if err := serve.HostKeyOutside(dir, hostKey); err != nil {
			return refusal(a, err)
		}
		key, created, err := serve.HostKey(hostKey)
		if err != nil {
			return refusal(a, err)
		}
		srv, err := serve.New(serve.Config{Layout: layout, Allowed: as, HostKey: key, TakeoverAfter: takeover, Host: host, Log: a.stdout})
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", listen)
		if err != nil {
			return refusal(a, err)
		}
		made := ""
		if created {
			made = " (created)"
		}
		fmt.Fprintf(a.stdout, "verdict serve: serving %s to raters %s\nhost key %s%s\nhost key fingerprint %s\nlistening on %s\n",
			dir, strings.Join(layout.Raters, ", "), hostKey, made, srv.Fingerprint(), ln.Addr())
		ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		errc := make(chan error, 1)
		go func() { errc <- srv.Serve(ln) }()
		select {
		case err = <-errc:
		case <-ctx.Done():
			err = srv.Close()
			<-errc
		}
		if err != nil {
			return err
		}
		fmt.Fprintln(a.stdout, "verdict serve: stopped; every saved grade and decision is on disk")
		return nil
	}
	return c
}

func newStatusCmd(a *app) *cobra.Command {
	var allowed string
	c := &cobra.Command{
		Use:   "status RATINGS-DIR --allowed-signers FILE [--format text|json]",
		Short: "Show each rater's and the adjudication's progress (counts only, never a grade)",
		Long: `status reads RATINGS-DIR (the directory blind --out wrote, or the one verdict
serve serves) without taking any lock or changing any file, so it runs beside
verdict serve and verdict rate. Per rater: fields graded of required, items
done, items flagged to come back to, time spent, last activity, frozen or
not and the sheet's SHA-256 once frozen (a sheet counts as frozen only when
it verifies against allowed_signers and its bundle). For the adjudication:
disputes resolved of total once both sheets are frozen, and whether it is
signed. It never shows a grade value or a note. --format json writes the
same as one JSON object. allowed_signers is --allowed-signers, else the
config key allowed_signers, never a file in RATINGS-DIR
(allowed-signers-missing without either).`,
		Args: cobra.ExactArgs(1),
	}
	addAllowedSignersFlag(c, &allowed, "allowed_signers file the sheets are verified against (required; never read from RATINGS-DIR)")
	format := formatFlag(c, "text", "json")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		layout, err := serve.ReadLayout(args[0])
		if err != nil {
			return refusal(a, err)
		}
		as, err := servedAllowed(a, allowed, layout)
		if err != nil {
			return err
		}
		rep := serve.Status(layout, as, nil)
		if *format == "json" {
			return writeJSON(a.stdout, rep)
		}
		return rep.WriteText(a.stdout)
	}
	return c
}

// servedAllowed reads the allowed_signers file of a served directory:
// flag, else the config key (trustedSigners; never a file in the served
// directory).
func servedAllowed(a *app, flag string, layout serve.Layout) ([]adjudication.AllowedSigner, error) {
	path, err := trustedSigners(a, flag)
	if err != nil {
		return nil, refusal(a, err)
	}
	as, err := adjudication.LoadAllowedSigners(path)
	if err != nil {
		return nil, refusal(a, err)
	}
	return as, nil
}
