// The changelog lines of changesets (`changelog` in config.json): a changeset's summary as the
// customer reads it, without the commit hash the default generator puts first. changesets files
// the lines under "Major/Minor/Patch Changes"; scripts/changelog.mjs (run by `npm run
// release:version`) then moves them into the Keep a Changelog sections CHANGELOG.md uses.
'use strict';

/** One list item; the summary's further lines are indented under it. */
async function getReleaseLine(changeset) {
  const [first, ...rest] = changeset.summary.trim().split('\n');
  const more = rest.map((line) => (line.trim() ? `  ${line}` : ''));
  return [`- ${first}`, ...more].join('\n');
}

/** The line the MCP package gets when it moves to a new SDK version (a "Changed" one). */
async function getDependencyReleaseLine(_changesets, dependenciesUpdated) {
  return dependenciesUpdated
    .map((dependency) => `- Changed: Depends on \`${dependency.name}\` ${dependency.newVersion}.`)
    .join('\n');
}

module.exports = { getReleaseLine, getDependencyReleaseLine };
