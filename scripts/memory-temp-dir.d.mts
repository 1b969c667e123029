export function isUsableMemoryFolder(mounts: string, freeBytes: number, folder?: string): boolean;
export function makeMemoryTempDir(): string | undefined;
export function removeFoldersOfEndedRuns(parent?: string): void;
