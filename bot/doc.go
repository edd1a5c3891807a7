// Package bot is tttbot on Discord: the /ttt command schema, a router that
// turns an interaction into a response, one table (lobby, game, result) per
// channel, and two transports that carry interactions in and responses out:
// the gateway through a discordgo Session, and Discord's HTTP interactions
// endpoint.
//
// Handlers are functions of (request, table) → response, so every one of them
// is tested without a network. Every word a user reads is written in
// messages.go. The store the bot needs is the Store interface declared here;
// package store implements it.
package bot
