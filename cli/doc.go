// Package cli holds the terminal faces of tttbot: the original interactive
// game (Play) and the batch board checker (Verify). Both read and write
// plain streams so tests drive them with strings.
package cli
