// Which store a location names, without loading either: a postgres:// URL, or a SQLite file.

export const isPostgresUrl = (location: string) => /^postgres(ql)?:\/\//i.test(location);

/** The URL with its password left out, for messages and logs. */
export const redactUrl = (url: string) => url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@]*@/i, '$1***@');
