package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite" // to read the restored copies
)

var binary string

// TestMain builds bin/studio once so the tests can run it as a visitor's
// server runs: a separate process with its own environment. The tests run
// in parallel, each with its own DATA_DIR, port and database, except
// those that run a command in this process: they set the environment
// (t.Setenv), which is the whole process's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "studio-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "studio")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// runToExit runs the server with env and returns its exit code and stderr.
func runToExit(t *testing.T, env ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("the server did not exit")
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

func TestStartupErrorsAreOneClearLine(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() }) // after the subtests, which run in parallel
	busyPort := busy.Addr().(*net.TCPAddr).Port

	notADir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notADir, []byte("x"), 0o600)

	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"port in use", []string{fmt.Sprintf("PORT=%d", busyPort), "DATA_DIR=" + t.TempDir()}, fmt.Sprintf("studio: cannot listen on :%d (LISTEN_ADDR): bind: address already in use", busyPort)},
		{"empty DATA_DIR", []string{fmt.Sprintf("PORT=%d", freePort(t)), "DATA_DIR="}, "studio: DATA_DIR is set but empty"},
		{"LISTEN_ADDR without a port", []string{"LISTEN_ADDR=127.0.0.1", "DATA_DIR=" + t.TempDir()}, `studio: LISTEN_ADDR="127.0.0.1" is not an address to listen on`},
		{"unwritable DATA_DIR", []string{fmt.Sprintf("PORT=%d", freePort(t)), "DATA_DIR=" + notADir}, fmt.Sprintf("studio: DATA_DIR=%q", notADir)},
		{"bad PORT", []string{"PORT=eighty", "DATA_DIR=" + t.TempDir()}, `studio: PORT="eighty" is not a port number`},
		{"database unreachable", []string{fmt.Sprintf("PORT=%d", freePort(t)), "DATA_DIR=" + t.TempDir(), "DATABASE_URL=postgres://studio@127.0.0.1:1/studio?sslmode=disable&connect_timeout=2"}, "studio: store: ping postgres:"},
		{"PUBLIC_URL with a path", []string{fmt.Sprintf("PORT=%d", freePort(t)), "DATA_DIR=" + t.TempDir(), "PUBLIC_URL=https://www.example.com/studio"},
			`studio: PUBLIC_URL="https://www.example.com/studio" has a path (/studio): give the site's address alone, such as https://www.example.com`},
		{"short studio password", []string{fmt.Sprintf("PORT=%d", freePort(t)), "DATA_DIR=" + t.TempDir(), "STUDIO_PASSWORD=secret"}, "studio: STUDIO_PASSWORD is too short"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stderr := runToExit(t, tt.env...)
			if code == 0 {
				t.Fatalf("exit code 0, want non-zero")
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], tt.want) {
				t.Errorf("stderr = %q, want one line starting %q", stderr, tt.want)
			}
		})
	}
}

func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			_, cmd := startServer(t)
			cmd.Process.Signal(sig)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("after %v the server exited with %v, want 0", sig, err)
			}
		})
	}
}

// launch starts bin/studio with env and returns once /healthz at base
// answers 200; a server that does not come up fails the test with its stderr.
func launch(t *testing.T, base string, env []string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary)
	cmd.Env = env
	return started(t, base, cmd)
}

// started starts cmd (bin/studio, its environment and stdout set) and
// returns once /healthz at base answers 200.
func started(t *testing.T, base string, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return cmd
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the server did not come up: %v\n%s", err, stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startServer runs bin/studio on a free port until the test ends and
// returns its base URL once it answers.
func startServer(t *testing.T) (string, *exec.Cmd) {
	t.Helper()
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	cmd := launch(t, base, append(os.Environ(), fmt.Sprintf("PORT=%d", port), "DATA_DIR="+t.TempDir(), "DATABASE_URL=", "STUDIO_PASSWORD=", "SMTP_HOST="))
	t.Cleanup(func() {
		if cmd.ProcessState == nil { // still running: the test did not stop it
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return base, cmd
}

// Clients that send their headers a byte at a time do not hold the server:
// others are answered meanwhile, and the slow ones are cut off once the
// header timeout has passed.
func TestSlowClientsAreDropped(t *testing.T) {
	t.Parallel()
	base, _ := startServer(t)
	addr := strings.TrimPrefix(base, "http://")

	const slowClients = 50
	dropped := make(chan time.Duration, slowClients)
	start := time.Now()
	for i := 0; i < slowClients; i++ {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		go func() {
			request := "GET / HTTP/1.1\r\nHost: studio\r\nX-Slow: " + strings.Repeat("a", 200)
			for i := 0; i < len(request); i++ {
				if _, err := conn.Write([]byte{request[i]}); err != nil {
					dropped <- time.Since(start)
					return
				}
				time.Sleep(200 * time.Millisecond)
			}
			dropped <- -1 // sent everything without being cut off
		}()
	}

	// Meanwhile ordinary visitors are served: the first is answered while
	// every slow client is still connected, not once they are cut off (by
	// the server's 5 s header timeout), and none fails. The client's own
	// time limit is only a generous guard.
	client := &http.Client{Timeout: 2 * time.Minute}
	for i := 0; i < 20; i++ {
		resp, err := client.Get(base + "/products")
		if err != nil {
			t.Fatalf("a normal request failed while slow clients were connected: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
		if i == 0 && len(dropped) > 0 {
			t.Fatal("the first normal request was answered only after slow clients were cut off")
		}
	}

	for i := 0; i < slowClients; i++ {
		select {
		case after := <-dropped:
			if after < 0 {
				t.Fatal("a slow client sent its whole request without being cut off")
			}
		case <-time.After(2 * time.Minute):
			t.Fatal("slow clients were still connected 2 minutes later")
		}
	}
}

// SIGTERM while an enquiry is half sent: the server stops taking new
// connections, finishes that request (201, stored), and exits 0.
func TestShutdownFinishesRequestsInFlight(t *testing.T) {
	t.Parallel()
	base, cmd := startServer(t)
	addr := strings.TrimPrefix(base, "http://")
	body := `{"kind":"contact","name":"Asha","email":"asha@example.com","message":"Sent slowly","fillMs":5000}`

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// With "Expect: 100-continue" the server says "100 Continue" the moment
	// the handler starts reading the body: the request is then in flight.
	fmt.Fprintf(conn, "POST /api/enquiries HTTP/1.1\r\nHost: studio\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", len(body))
	reader := bufio.NewReader(conn)
	if line, err := reader.ReadString('\n'); err != nil || !strings.HasPrefix(line, "HTTP/1.1 100") {
		t.Fatalf("no 100 Continue: %q %v", line, err)
	}
	if _, err := reader.ReadString('\n'); err != nil { // the blank line after it
		t.Fatal(err)
	}
	if _, err := conn.Write([]byte(body[:20])); err != nil {
		t.Fatal(err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The listener closes: no new visitor gets in.
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("still accepting connections a minute after SIGTERM")
		}
		time.Sleep(20 * time.Millisecond)
	}

	if _, err := conn.Write([]byte(body[20:])); err != nil {
		t.Fatalf("the request in flight was cut off: %v", err)
	}
	resp, err := http.ReadResponse(reader, nil)
	if err != nil {
		t.Fatalf("no answer to the request in flight: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("the request in flight got %d, want 201", resp.StatusCode)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v, want 0", err)
	}
}

// `studio backup` takes a consistent copy while the server runs and 16
// clients post enquiries through the API: restored into a new DATA_DIR, the
// copy holds every enquiry answered 201 before the backup began, and passes
// integrity_check. `studio restore` refuses while the server holds
// DATA_DIR. Once the server is killed, restore replaces its database, and
// the dead server's WAL file, which holds enquiries taken after the backup,
// is moved aside rather than replayed into the copy.
func TestBackupAndRestoreCommands(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	// Each request names its own visitor through X-Forwarded-For, believed
	// from loopback, so the per-visitor limit stays out of the way.
	env := append(os.Environ(), fmt.Sprintf("PORT=%d", port), "TRUSTED_PROXIES=127.0.0.1,::1",
		"DATABASE_URL=", "STUDIO_PASSWORD=", "SMTP_HOST=")
	server := launch(t, base, append(env, "DATA_DIR="+dataDir))
	t.Cleanup(func() {
		if server.ProcessState == nil {
			server.Process.Kill()
			server.Wait()
		}
	})
	studio := func(dataDir string, args ...string) (string, error) {
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, "DATABASE_URL=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	const clients = 16
	var (
		mu      sync.Mutex
		acked   []int64
		stop    atomic.Bool
		visitor atomic.Uint32
		wg      sync.WaitGroup
		going   = make(chan struct{}) // closed at the 300th acknowledgement
	)
	client := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: clients}} // generous: the machine may be busy
	for c := range clients {
		wg.Go(func() {
			for seq := 0; !stop.Load(); seq++ {
				body := fmt.Sprintf(`{"kind":"contact","name":"Backup","email":"b@example.com","message":"client %d, #%d","fillMs":5000}`, c, seq)
				req, _ := http.NewRequest("POST", base+"/api/enquiries", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				n := visitor.Add(1)
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255))
				resp, err := client.Do(req)
				if err != nil {
					t.Errorf("client %d: %v", c, err)
					return
				}
				var got struct{ ID int64 }
				err = json.NewDecoder(resp.Body).Decode(&got)
				resp.Body.Close()
				if resp.StatusCode != http.StatusCreated || err != nil {
					t.Errorf("client %d: status %d, %v", c, resp.StatusCode, err)
					return
				}
				mu.Lock()
				acked = append(acked, got.ID)
				if len(acked) == 300 {
					close(going)
				}
				mu.Unlock()
			}
		})
	}
	clientsEnded := make(chan struct{})
	go func() { wg.Wait(); close(clientsEnded) }()
	select {
	case <-going:
	case <-clientsEnded:
		t.Fatal("the clients gave up before 300 enquiries were acknowledged")
	}

	mu.Lock()
	before := append([]int64(nil), acked...)
	mu.Unlock()
	file := filepath.Join(t.TempDir(), "backup")
	backupOut, backupErr := studio(dataDir, "backup", file)
	restoreOut, restoreErr := studio(dataDir, "restore", file)
	stop.Store(true)
	<-clientsEnded
	if backupErr != nil {
		t.Fatalf("backup while serving: %v\n%s", backupErr, backupOut)
	}
	var inBackup int
	if _, err := fmt.Sscanf(strings.TrimPrefix(backupOut, "backup: "+file+": "), "%d enquiries", &inBackup); err != nil {
		t.Fatalf("backup printed %q, want the file and its number of enquiries", backupOut)
	}
	if restoreErr == nil || !strings.Contains(restoreOut, "a server is running with this DATA_DIR") {
		t.Fatalf("restore while serving: %v\n%s, want a refusal", restoreErr, restoreOut)
	}
	if inBackup >= len(acked) {
		t.Fatalf("the backup holds %d enquiries of the %d acknowledged: none came after it, so the WAL check below proves nothing", inBackup, len(acked))
	}

	// Into a new machine's DATA_DIR: every enquiry acknowledged before the
	// backup began is there, and the file is sound.
	fresh := filepath.Join(t.TempDir(), "fresh")
	if out, err := studio(fresh, "restore", file); err != nil || !strings.Contains(out, "restore: "+file) || strings.Contains(out, "kept as") {
		t.Fatalf("restore into a new DATA_DIR: %v\n%s", err, out)
	}
	ids, check := readRestored(t, filepath.Join(fresh, "studio.db"))
	if check != "ok" {
		t.Errorf("integrity_check of the restored copy: %q", check)
	}
	missing := 0
	for _, id := range before {
		if !ids[id] {
			missing++
		}
	}
	if missing > 0 || len(ids) != inBackup {
		t.Errorf("%d of the %d enquiries acknowledged before the backup are missing from the restored copy, which holds %d (the backup said %d)",
			missing, len(before), len(ids), inBackup)
	}

	// Over the database of a killed server, whose WAL file is left behind.
	server.Process.Signal(syscall.SIGKILL)
	server.Wait()
	if _, err := os.Stat(filepath.Join(dataDir, "studio.db-wal")); err != nil {
		t.Fatalf("the killed server left no WAL file: %v", err)
	}
	if out, err := studio(dataDir, "restore", file); err != nil || !strings.Contains(out, "restore: "+file) || !strings.Contains(out, "kept as "+filepath.Join(dataDir, "studio.db.replaced-")) {
		t.Fatalf("restore after the server stopped: %v\n%s, want the restored file and where the replaced database went", err, out)
	}
	if ids, _ := readRestored(t, filepath.Join(dataDir, "studio.db")); len(ids) != inBackup {
		t.Errorf("after restoring over a killed server's database: %d enquiries, want the backup's %d", len(ids), inBackup)
	}
	server = launch(t, base, append(env, "DATA_DIR="+dataDir))
	resp, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("readyz of the server on the restored database: %d, want 200", resp.StatusCode)
	}

	if out, err := studio(dataDir, "backup"); err == nil || !strings.Contains(out, "usage:") {
		t.Errorf("backup without a file: %v\n%s, want the usage", err, out)
	}
	if out, err := studio(dataDir, "backup", file); err == nil || !strings.Contains(out, "already exists") {
		t.Errorf("backup over an existing file: %v\n%s, want a refusal", err, out)
	}
	// With PostgreSQL, a backup holds the content and sends the operator
	// to pg_dump for the database; a SQLite backup is not restored there.
	pgURL := "DATABASE_URL=postgres://studio@127.0.0.1:1/studio"
	pgBackup := filepath.Join(t.TempDir(), "content-only")
	cmd := exec.Command(binary, "backup", pgBackup)
	cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, pgURL)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "back it up with pg_dump") {
		t.Errorf("backup with DATABASE_URL: %v\n%s, want the content backed up and pg_dump named for the database", err, out)
	}
	cmd = exec.Command(binary, "restore", file)
	cmd.Env = append(os.Environ(), "DATA_DIR="+t.TempDir(), pgURL)
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "holds a SQLite database, and DATABASE_URL is set") {
		t.Errorf("restore of a SQLite backup with DATABASE_URL: %v\n%s, want a refusal", err, out)
	}
}

// readRestored reads the enquiry ids and the integrity_check of the SQLite
// database at path.
func readRestored(t *testing.T, path string) (map[int64]bool, string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT id FROM enquiries`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ids := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[id] = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids, check
}
