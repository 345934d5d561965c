// Package deploy holds the files for running the site in production; this
// test checks the compose file's shape (scripts/check-deploy.sh checks the
// rest with the tools themselves: systemd-analyze, nginx, caddy).
package deploy

import (
	"os"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Build       *struct{ Context, Dockerfile string }
			Image       string
			EnvFile     string `yaml:"env_file"`
			Environment map[string]string
			Volumes     []string
			DependsOn   map[string]struct{ Condition string } `yaml:"depends_on"`
			Healthcheck *struct{ Test []string }
		}
		Volumes  map[string]any
		Networks map[string]struct {
			Ipam struct {
				Config []struct{ Subnet, Gateway string }
			}
		}
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	studio, db := compose.Services["studio"], compose.Services["db"]
	if studio.Build == nil || studio.Build.Dockerfile != "deploy/Dockerfile" {
		t.Errorf("studio is not built from deploy/Dockerfile: %+v", studio.Build)
	}
	if _, err := os.Stat("Dockerfile"); err != nil {
		t.Error(err)
	}
	if studio.Environment["DATABASE_URL"] == "" || studio.DependsOn["db"].Condition != "service_healthy" {
		t.Errorf("studio does not wait for a healthy db it is pointed at: %+v", studio)
	}
	if db.Healthcheck == nil || len(db.Healthcheck.Test) < 2 || db.Healthcheck.Test[1] != "pg_isready" {
		t.Errorf("db has no pg_isready healthcheck: %+v", db.Healthcheck)
	}
	// A proxy on the host comes through the network's gateway: the server
	// must trust exactly that address.
	ipam := compose.Networks["default"].Ipam.Config
	if len(ipam) != 1 || ipam[0].Gateway == "" || studio.Environment["TRUSTED_PROXIES"] != ipam[0].Gateway {
		t.Errorf("TRUSTED_PROXIES %q is not the network's gateway %+v", studio.Environment["TRUSTED_PROXIES"], ipam)
	}
	for _, v := range []string{"studio-data", "db-data"} {
		if _, ok := compose.Volumes[v]; !ok {
			t.Errorf("volume %s is not declared", v)
		}
	}
	if _, err := os.Stat(studio.EnvFile + ".example"); err != nil {
		t.Errorf("env_file %s has no example beside it: %v", studio.EnvFile, err)
	}
}
