package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/gen/importer"
	"github.com/mcpgen/mcpgen/runtime/client"
	"github.com/mcpgen/mcpgen/runtime/estate"
)

const importUsage = `usage: mcpgen import -manifests DIR [decisions] SOURCE
       mcpgen import -check -manifests DIR SOURCE

SOURCE is one of:
  -file FILE          a saved tools/list answer (- for standard input)
  -url URL            a server over Streamable HTTP; -token-env VAR names
                      the environment variable holding a bearer token
  -- COMMAND [ARGS]   a server started as COMMAND, over stdio

decisions, each for one tool (NAME=VALUE, NAME its published name) or for
every tool (VALUE), repeatable:
  -side-effect read|write_idempotent|write_non_idempotent|irreversible
  -owner TEAM  -classification public|internal|confidential|restricted
  -scopes a,b

Writes one manifest per tool at 1.0.0 into DIR (which must not exist or be
empty). -check compares the server with the manifests in DIR instead.
`

// decisionFlag is a repeatable flag whose values are NAME=VALUE for one
// tool or VALUE for every tool.
type decisionFlag map[string]string

func (d decisionFlag) String() string { return "" }

func (d decisionFlag) Set(s string) error {
	key, value := "", s
	if k, v, ok := strings.Cut(s, "="); ok {
		key, value = k, v
		if key == "" {
			return errors.New("NAME=VALUE needs a tool name")
		}
	}
	if _, dup := d[key]; dup {
		if key == "" {
			return errors.New("given twice for every tool")
		}
		return fmt.Errorf("given twice for %s", key)
	}
	d[key] = value
	return nil
}

func importCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("import", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, importUsage); fs.PrintDefaults() }
	manifests := fs.String("manifests", "", "directory to write the manifests into (with -check: the manifests to compare with)")
	file := fs.String("file", "", "a saved tools/list answer: a file, or - for standard input")
	url := fs.String("url", "", "the server's Streamable HTTP endpoint")
	tokenEnv := fs.String("token-env", "", "with -url: the environment variable holding a bearer token (a token is never a flag: flags land in shell history)")
	checkMode := fs.Bool("check", false, "compare the server with the manifests in -manifests and report the drift")
	timeout := fs.Duration("timeout", 60*time.Second, "how long a live server has to answer")
	sideEffects, owners, classes, scopes := decisionFlag{}, decisionFlag{}, decisionFlag{}, decisionFlag{}
	fs.Var(sideEffects, "side-effect", "[NAME=]CLASS: the side effect of a tool whose annotations do not state it (with NAME: of that tool, whatever its annotations say)")
	fs.Var(owners, "owner", "[NAME=]TEAM: the owning team")
	fs.Var(classes, "classification", "[NAME=]CLASS: the data classification")
	fs.Var(scopes, "scopes", "[NAME=]a,b: the scopes a caller must hold")
	if err := fs.Parse(args); err != nil {
		return parseStatus(err)
	}
	command := fs.Args()
	sources := 0
	for _, given := range []bool{*file != "", *url != "", len(command) > 0} {
		if given {
			sources++
		}
	}
	switch {
	case *manifests == "":
		fmt.Fprintln(stderr, "mcpgen import: -manifests is required")
		return exitUsage
	case sources != 1:
		fmt.Fprintf(stderr, "mcpgen import: give one source: -file, -url or -- COMMAND\n\n%s", importUsage)
		return exitUsage
	case *tokenEnv != "" && *url == "":
		fmt.Fprintln(stderr, "mcpgen import: -token-env goes with -url")
		return exitUsage
	}
	d, err := decisions(sideEffects, owners, classes, scopes)
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen import: %v\n", err)
		return exitUsage
	}

	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	var list *importer.List
	var srv *importer.Server
	switch {
	case *file != "":
		list, err = readSaved(*file)
	case *url != "":
		header := http.Header{}
		if *tokenEnv != "" {
			token := os.Getenv(*tokenEnv)
			if token == "" {
				fmt.Fprintf(stderr, "mcpgen import: the environment variable %s is empty or not set\n", *tokenEnv)
				return exitUsage
			}
			header.Set("Authorization", "Bearer "+token)
		}
		list, srv, err = readHTTP(ctx, *url, header)
	default:
		list, srv, err = readStdio(ctx, command)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcpgen import: %v\n", err)
		return exitUsage
	}
	for _, flags := range []decisionFlag{sideEffects, owners, classes, scopes} {
		for name := range flags {
			if name != "" && !slices.ContainsFunc(list.Tools, func(t importer.Tool) bool { return t.Name == name }) {
				fmt.Fprintf(stderr, "mcpgen import: a decision names %q, which %s does not list\n", name, list.Source)
				return exitUsage
			}
		}
	}

	if *checkMode {
		est, err := gen.LoadEstate(gen.Options{Manifests: *manifests})
		if err != nil {
			return report(err, "text", stdout, stderr)
		}
		rep := importer.Check(list, est)
		rep.Write(stdout)
		if !rep.OK() {
			return exitRefused
		}
		return exitOK
	}

	res := importer.Build(list, srv, d)
	for _, r := range res.Renamed {
		fmt.Fprintf(stdout, "renamed %q -> %s: the manifest rules refuse the published name; the manifest records it as wireName, and the generated server publishes the tool under it\n", r.Wire, r.Name)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(stderr, "not imported: %s\n", s)
	}
	if len(res.Files) == 0 {
		fmt.Fprintf(stderr, "mcpgen import: no tool of %s could be imported; nothing was written\n", list.Source)
		return exitRefused
	}
	if err := res.Write(*manifests); err != nil {
		fmt.Fprintf(stderr, "mcpgen import: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "imported %d of %d tools from %s into %s at %s\n", len(res.Files), len(list.Tools), list.Source, *manifests, importer.Version)
	if len(res.Skipped) > 0 {
		return exitRefused
	}
	return exitOK
}

// decisions turns the flags into importer.Decisions, refusing a value that
// is not one.
func decisions(sideEffects, owners, classes, scopes decisionFlag) (importer.Decisions, error) {
	d := importer.Decisions{
		SideEffect:     map[string]estate.SideEffect{},
		Owner:          map[string]string{},
		Classification: map[string]estate.Classification{},
		Scopes:         map[string][]string{},
	}
	for k, v := range sideEffects {
		se, err := estate.ParseSideEffect(v)
		if err != nil {
			return d, fmt.Errorf("-side-effect %s: %v", v, err)
		}
		d.SideEffect[k] = se
	}
	for k, v := range owners {
		if strings.TrimSpace(v) == "" {
			return d, errors.New("-owner: empty team")
		}
		d.Owner[k] = v
	}
	for k, v := range classes {
		c, err := estate.ParseClassification(v)
		if err != nil {
			return d, fmt.Errorf("-classification %s: %v", v, err)
		}
		d.Classification[k] = c
	}
	for k, v := range scopes {
		var list []string
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				list = append(list, s)
			}
		}
		d.Scopes[k] = list
	}
	return d, nil
}

func readSaved(file string) (*importer.List, error) {
	if file == "-" {
		return importer.ReadSaved(os.Stdin, "standard input")
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return importer.ReadSaved(f, file)
}

func readHTTP(ctx context.Context, url string, header http.Header) (*importer.List, *importer.Server, error) {
	conn := client.NewHTTPConn(url, nil, header)
	c := client.New(conn, client.Options{Info: client.Implementation{Name: "mcpgen-import", Version: "1"}})
	defer c.Close()
	info, err := c.Connect(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", url, err)
	}
	conn.SetProtocolVersion(info.ProtocolVersion)
	list, err := importer.ReadLive(ctx, c, url)
	return list, &importer.Server{Name: info.ServerInfo.Name, Version: info.ServerInfo.Version}, err
}

// readStdio starts command as an MCP server over stdio, lists its tools
// and stops it (closing its standard input, as the stdio transport's
// shutdown asks, then killing it if it does not exit). Its standard error
// is shown only when something goes wrong.
func readStdio(ctx context.Context, command []string) (*importer.List, *importer.Server, error) {
	cmd := exec.Command(command[0], command[1:]...)
	var errOut lockedBuffer
	cmd.Stderr = &errOut
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	source := strings.Join(command, " ")
	c := client.New(client.NewStreamConn(stdout, stdin), client.Options{Info: client.Implementation{Name: "mcpgen-import", Version: "1"}})
	list, srv, err := func() (*importer.List, *importer.Server, error) {
		info, err := c.Connect(ctx)
		if err != nil {
			return nil, nil, err
		}
		list, err := importer.ReadLive(ctx, c, source)
		return list, &importer.Server{Name: info.ServerInfo.Name, Version: info.ServerInfo.Version}, err
	}()
	stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-exited
	}
	c.Close()
	if err != nil {
		if tail := strings.TrimSpace(errOut.String()); tail != "" {
			if len(tail) > 2000 {
				tail = "..." + tail[len(tail)-2000:]
			}
			err = fmt.Errorf("%s: %w\nthe server's standard error:\n%s", source, err, tail)
		} else {
			err = fmt.Errorf("%s: %w", source, err)
		}
	}
	return list, srv, err
}

// lockedBuffer is a bytes.Buffer the child's stderr copier and this
// process may use at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
