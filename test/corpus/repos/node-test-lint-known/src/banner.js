/** Prints the banner: an old lint finding on the base branch. */
export function banner() {
  console.log('durations');
}
