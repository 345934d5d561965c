// Package config reads the server's settings from the environment, once,
// at start-up, and checks them before anything is served.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Config is every setting of bin/studio.
type Config struct {
	Port    int    // PORT, default 8080
	DataDir string // DATA_DIR, default ./data: where the SQLite database lives
}

// FromEnv reads the settings through getenv (os.Getenv in production) and
// fills in defaults.
func FromEnv(getenv func(string) string) (Config, error) {
	c := Config{Port: 8080, DataDir: "data"}
	if v := getenv("PORT"); v != "" {
		port, err := strconv.Atoi(v)
		if err != nil || port < 1 || port > 65535 {
			return Config{}, fmt.Errorf("PORT=%q is not a port number (1-65535)", v)
		}
		c.Port = port
	}
	if v := getenv("DATA_DIR"); v != "" {
		c.DataDir = v
	}
	return c, nil
}

// Validate checks what can only be checked on this machine: that DATA_DIR
// exists or can be made, and that the server can write in it.
func (c Config) Validate() error {
	if err := os.MkdirAll(c.DataDir, 0o750); err != nil {
		return fmt.Errorf("DATA_DIR=%q cannot be created: %w", c.DataDir, unwrapPath(err))
	}
	probe, err := os.CreateTemp(c.DataDir, ".write-check-*")
	if err != nil {
		return fmt.Errorf("DATA_DIR=%q is not writable: %w", c.DataDir, unwrapPath(err))
	}
	name := probe.Name()
	probe.Close()
	os.Remove(name)
	return nil
}

// Addr is the address the server listens on.
func (c Config) Addr() string {
	return ":" + strconv.Itoa(c.Port)
}

// AbsDataDir is DATA_DIR as an absolute path, for logs.
func (c Config) AbsDataDir() string {
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return c.DataDir
	}
	return abs
}

// unwrapPath drops the *PathError wrapper, whose text repeats the path.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
