// The join page: posts the key from the fragment, then opens the follow page (step 3).
