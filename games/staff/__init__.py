"""The staff dashboard's figures and the admin's filters."""
