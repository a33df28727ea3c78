// Package imagetest tests the container image the repository's
// Containerfile builds, as a CI job's service runs it: configured by its
// environment alone, seeded with --apply, healthy by its own health check.
// `make test-image` builds the image in a podman store of its own and runs
// the test; without OMCTL_TEST_IMAGE the test skips.
//
// Where the machine lets podman run containers, the test runs the image
// (trying the runtimes and limits a sandbox allows). Where it does not, it
// exports the image's filesystem (podman create + podman export) and runs
// the image's entrypoint from it with the image's environment and user,
// which checks the same binary, configuration and health check without a
// container runtime.
package imagetest
