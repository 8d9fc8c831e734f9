// `scratchlab` for a block that targets the real site (./swap-hooks.mjs): the package as it is,
// with the sandbox's hosts as the default of every `Session` and the sandbox's alternate cloud
// server as the default of `Cloud.alternate`.
import * as real from 'scratchlab';

export * from 'scratchlab';

const site = Reflect.get(globalThis, Symbol.for('scratchlab.docs.site'));

export class Session extends real.Session {
  constructor(options = {}) {
    super({ hosts: site.hosts, ...options });
  }

  static login(username, password, options = {}) {
    return real.Session.login(username, password, { hosts: site.hosts, ...options });
  }
}

export class Cloud extends real.Cloud {
  static alternate(projectId, options = {}) {
    return real.Cloud.alternate(projectId, { host: site.alternateCloudHost, ...options });
  }
}
