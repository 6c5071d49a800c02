// Package browsertest gives tests a browser command as a user names one in BROWSER: a script that
// records the arguments it was started with and the page of the file it was given, so a test can
// prove that no secret reaches a command line. It runs on unix, where the record is a fifo that a
// test reads to await the run.
package browsertest
