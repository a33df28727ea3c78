// Package consumer is a module of its own that tests a program's way of
// using omctl server through github.com/omctl/omctl/omtest alone, as a
// user's module would: omtest's TestAConsumerModule runs its tests.
package consumer
