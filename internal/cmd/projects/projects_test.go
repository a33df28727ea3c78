package projects

const (
	project     = "5e2b0c2e8f9d4b0012345678"
	projectJSON = `{"id":"5e2b0c2e8f9d4b0012345678","name":"shop","orgId":"5e1a0c2e8f9d4b0012345678","tags":["prod","eu"],"future":1}`
)
