// Publishing an exported project as a new GitHub repository (one commit), and a later export
// of it as a pull request, for the CLI and library users alike.
export { publishToGitHub, DEFAULT_API_URL, type PublishOptions, type PublishResult } from "./publish.js";
export { updateGitHubRepository, type UpdateRepositoryOptions, type UpdateRepositoryResult } from "./update-repository.js";
export { PublishError, type PublishErrorKind, type LeftRepository } from "./errors.js";
export type { PublishTiming } from "./github-client.js";
export { DEFAULT_LIMITS, type UploadLimits } from "./upload-plan.js";
export { parseRepositoryName, type RepositoryName } from "./repository-name.js";
export { readDirectory, readDirectoryFiles, type DirectoryContents, type LeftOut } from "./read-directory.js";
