// The follow page (step 3).
