package fakediscord

// CheckMessage returns what in a message's body breaks Discord's API
// description, as the fake checks the bodies sent to it: for a body that
// never reaches it, such as an interaction's reply answered inline
// (its data is a message body).
func CheckMessage(raw []byte) []string { return checkMessage(raw, nil) }
