import { ShadeboxError } from '@shadebox/errors';

/** A home-directory file (genesis.json, config.json, a key file) that is missing, unreadable or invalid. */
export interface ConfigIssue {
  /** The field, as a path into the file (`rpc.addr`, `records[2].Account.account.amount`), or `$` for the file. */
  field: string;
  message: string;
}

export class ConfigFileError extends ShadeboxError<{
  file: string;
  field: string;
  issues: readonly ConfigIssue[];
}> {
  /** The first problem's field. */
  readonly field: string;

  constructor(
    /** The file, as given to the loader (a path, or just its name for in-memory configs). */
    readonly file: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    const field = issues[0]?.field ?? '$';
    super(
      `${file}: ${issues.map((issue) => (issue.field === '$' ? issue.message : `${issue.field}: ${issue.message}`)).join('; ')}`,
      { details: { file, field, issues }, docsPath: 'docs/configuration.md' },
    );
    this.field = field;
  }

  static single(file: string, field: string, message: string): ConfigFileError {
    return new ConfigFileError(file, [{ field, message }]);
  }
}
