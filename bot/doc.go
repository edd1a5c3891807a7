// Package bot is tttbot's Discord-facing logic: the /ttt command schema, one
// typed route table (routes.go) for subcommands and button custom_ids, the
// handlers, and the replies they build. It decides what to answer; the
// channels' game sessions are package table, and the transports that carry
// interactions in and Responses out are bot/gateway and bot/httpapi.
//
// An interaction is parsed once, at the edge (interaction.go), into a typed
// Interaction with its Route; handlers are functions of (interaction, table)
// → (Response, error), so every one of them is tested without a network.
// refuse.go is the one place an error becomes words, by a table from error
// to message key; the words themselves are in bot/locales.
//
// Words: every sentence is a key in bot/locales/en-US.json (the other
// Discord locales' files follow it), said by a *locales.Speaker. A handler
// takes in.Public for what everyone in the channel reads (the server's
// guild_locale; in a DM the user's locale) and in.Private for what only the
// user reads (ephemeral replies; refuse uses it). Text a user typed goes
// into a sentence only through locales.Code. TestMessageKeys fails on a key
// the code asks for that en-US.json lacks, and on one there that nothing
// asks for; a key built at run time ("kind."+…) names its values there.
//
// To add a subcommand: add its Route constant and a routeTable entry with
// its handler (a tableHandler if it acts on the channel's table, a
// queryHandler otherwise), its options in schema.go (sub takes the name from
// the route), its keys in en-US.json
// (command.<sub>.description, command.<sub>.<option>.description,
// command.<sub>.<option>.choice.<value>: schema_locales.go builds every
// localization from them, and TestSchemaTextsHaveKeys fails without them),
// the keys of its replies, and a transcript in testdata. A subcommand of a
// group (/ttt tournament new) is routed by "<group> <sub>", declared with
// group in schema.go, its keys under command.<group>.<sub>.
//
// Tournaments (tournament*.go): /ttt tournament acts on the channel's
// tournament, a document in the table store beside the tables; each game is
// a table in its own thread, whose end reports its result to the
// tournament through the table's due list (docs/tournament-games.md).
package bot
