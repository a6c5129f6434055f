package aristaeos

// TextFormForTest is textForm, for the external tests that print a
// configuration in another form.
var TextFormForTest = textForm
