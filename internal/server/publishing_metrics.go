package server

import "github.com/prometheus/client_golang/prometheus"

// buildMetrics are the figures of publishing (internal/publish): how long
// builds take and how they end, the stage of the one under way (a series
// per stage, at 1 while it runs), and the live release.
type buildMetrics struct {
	duration *prometheus.HistogramVec
	stage    *prometheus.GaugeVec
	live     *prometheus.GaugeVec
}

func (m *metrics) watchBuilds() *buildMetrics {
	b := &buildMetrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "studio_release_build_duration_seconds", Help: "Time to build a release of a content commit, by result (ready, failed).",
			Buckets: []float64{5, 10, 15, 20, 30, 45, 60, 90, 120, 300, 600},
		}, []string{"result"}),
		stage: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "studio_release_build_stage", Help: "1 for the stage of the build under way, by stage; none while no build runs.",
		}, []string{"stage"}),
		live: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "studio_release_live", Help: "1 for the release this server serves, by id.",
		}, []string{"release"}),
	}
	m.registry.MustRegister(b.duration, b.stage, b.live)
	return b
}

func (b *buildMetrics) switched(id string) {
	b.live.Reset()
	b.live.WithLabelValues(id).Set(1)
}
