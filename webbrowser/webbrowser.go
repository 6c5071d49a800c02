// Package webbrowser opens the user's web browser on a link that carries secrets without putting the link
// on any command line, where every local user could read it (ps, /proc/<pid>/cmdline) for as long as
// the browser lives. It does what Jupyter does for the same problem: it writes a small HTML page that
// forwards to the link into a file only the user can read (0600, in a 0700 directory), opens the browser
// on that file's path, and removes the file once the link's secret is spent.
package webbrowser

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Opener opens links through redirect files in Dir, with Command.
type Opener struct {
	// Dir holds the redirect files. Open creates it 0700 and refuses it when it is a link or other users
	// can reach into it.
	Dir string
	// Command is the program and its arguments; the file's path replaces an argument "%s", or is
	// appended when there is none. Use Command(os.Getenv("BROWSER")).
	Command []string
}

// Command returns the command that opens a file in the user's browser: the first entry of browserEnv
// (the BROWSER variable: commands separated by the OS's list separator, "%s" standing for the file, as
// Python's webbrowser reads it), else the system's opener (open on macOS, the URL handler on Windows,
// xdg-open elsewhere).
func Command(browserEnv string) []string {
	first, _, _ := strings.Cut(browserEnv, string(os.PathListSeparator))
	if f := strings.Fields(first); len(f) > 0 {
		return f
	}
	switch runtime.GOOS {
	case "darwin":
		return []string{"open"}
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler"}
	default:
		return []string{"xdg-open"}
	}
}

// Open writes a redirect file for link, starts the browser on it and returns at once. The file is
// removed when ended is closed (the link's secret can no longer be used) or ctx ends, whichever comes
// first; done is closed after that. An error means nothing was started and no file is left.
func (o Opener) Open(ctx context.Context, link string, ended <-chan struct{}) (done <-chan struct{}, err error) {
	if len(o.Command) == 0 {
		return nil, errors.New("webbrowser: no command to open a browser with")
	}
	if err := o.ensureDir(); err != nil {
		return nil, err
	}
	path, err := writeRedirect(o.Dir, link)
	if err != nil {
		return nil, err
	}
	args := make([]string, 0, len(o.Command))
	substituted := false
	for _, a := range o.Command[1:] {
		if strings.Contains(a, "%s") {
			a, substituted = strings.ReplaceAll(a, "%s", path), true
		}
		args = append(args, a)
	}
	if !substituted {
		args = append(args, path)
	}
	// Stdin, stdout and stderr stay unset (the null device): tele host's stdout carries link frames, and
	// a browser's chatter must never land in it.
	cmd := exec.Command(o.Command[0], args...)
	if err := cmd.Start(); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("webbrowser: cannot start %s: %w", o.Command[0], err)
	}
	// Reaps the opener. xdg-open, open and rundll32 exit at once; a browser named in BROWSER may live as
	// long as the user keeps it, longer than us, so nobody waits for this goroutine: it ends with the
	// browser or with the process.
	go func() { _ = cmd.Wait() }()

	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-ended:
		case <-ctx.Done():
		}
		os.Remove(path)
	}()
	return finished, nil
}

// RemoveLeftovers removes the redirect files a process that stopped abruptly left in Dir. Call it only
// while nothing else opens through Dir (tele host holds the data directory's lock).
func (o Opener) RemoveLeftovers() error {
	names, err := filepath.Glob(filepath.Join(o.Dir, "open-*.html"))
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ensureDir makes Dir (0700) when it is missing and refuses one that is a symbolic link, not a
// directory, or open to other users: the file in it holds a one-time secret.
func (o Opener) ensureDir() error {
	if err := os.Mkdir(o.Dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("webbrowser: cannot create %s: %w", o.Dir, err)
	}
	fi, err := os.Lstat(o.Dir)
	if err != nil {
		return fmt.Errorf("webbrowser: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("webbrowser: %s is not a directory", o.Dir)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("webbrowser: %s is open to other users (mode %04o); make it 0700", o.Dir, fi.Mode().Perm())
	}
	return nil
}

// writeRedirect writes the page that forwards to link into a new file of dir, readable by the user
// only, and returns its path. A meta refresh needs no script; the link is there too for a browser that
// does not follow it.
func writeRedirect(dir, link string) (string, error) {
	f, err := os.CreateTemp(dir, "open-*.html") // 0600, a fresh random name
	if err != nil {
		return "", fmt.Errorf("webbrowser: %w", err)
	}
	esc := html.EscapeString(link)
	page := `<!doctype html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=` + esc + `">
<title>Tele</title></head>
<body><p><a href="` + esc + `">Open Tele</a></p></body></html>
`
	_, werr := f.WriteString(page)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("webbrowser: writing %s: %w", f.Name(), err)
	}
	return filepath.Clean(f.Name()), nil
}
