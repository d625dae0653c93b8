import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// minitest loads every `minitest/*_plugin.rb` on the load path before it runs (Minitest.load_plugins
// through Gem.find_files, which searches $LOAD_PATH), so a RUBYLIB entry is enough to add a
// reporter to any minitest run, through rake, rails or bundle exec, with no change to the
// repository. This one writes JUnit XML, one file per process, with each test's file from its
// source_location. It sits on the composite reporter itself, because minitest-reporters' `use!`
// replaces the reporters inside it.

const MINITEST_LIB = 'ruby';
const MINITEST_REPORTS = 'minitest';

const SOURCE = `# Written by booty: a JUnit report of every minitest result, beside the repository's reporters.
module Minitest
  def self.plugin_booty_init(_options)
    dir = ENV['BOOTY_MINITEST_DIR']
    return if dir.nil? || dir.empty? || !File.directory?(dir)
    booty = BootyJunitReporter.new(File.join(dir, "#{Process.pid}.xml"))
    reporter.singleton_class.prepend(Module.new do
      define_method(:record) { |result| booty.record(result); super(result) }
      define_method(:report) { booty.report; super() }
    end)
  end

  class BootyJunitReporter
    ESC = { '&' => '&amp;', '<' => '&lt;', '>' => '&gt;', '"' => '&quot;' }.freeze

    def initialize(path)
      @path = path
      @rows = []
      @lock = Mutex.new
    end

    def esc(text)
      text.to_s.encode('UTF-8', invalid: :replace, undef: :replace)
          .gsub(/[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]/, '').gsub(/[&<>"]/, ESC)
    end

    def record(r)
      file = r.respond_to?(:source_location) ? Array(r.source_location)[0].to_s : ''
      row = +%(<testcase classname="#{esc(r.klass)}" name="#{esc(r.name)}" file="#{esc(file)}" time="#{r.time.to_f}">)
      if r.skipped?
        row << '<skipped/>'
      elsif !r.passed?
        tag = r.error? ? 'error' : 'failure'
        f = r.failure
        trace = Minitest.respond_to?(:filter_backtrace) ? Minitest.filter_backtrace(Array(f.backtrace)) : Array(f.backtrace)
        row << %(<#{tag} message="#{esc(f.message)}">#{esc([f.message, *trace].join("\\n"))}</#{tag}>)
      end
      row << '</testcase>'
      @lock.synchronize { @rows << row }
    end

    def report
      File.write(@path, %(<?xml version="1.0" encoding="UTF-8"?>\\n<testsuites name="minitest"><testsuite name="minitest">\\n#{@rows.join("\\n")}\\n</testsuite></testsuites>\\n))
    end
  end
end
`;

/** Writes the plugin under `<dir>/ruby/minitest/` and makes `<dir>/minitest/` for its reports. */
export async function writeMinitestPlugin(dir: string): Promise<{ lib: string; reports: string }> {
  const lib = path.join(dir, MINITEST_LIB);
  const reports = path.join(dir, MINITEST_REPORTS);
  await mkdir(path.join(lib, 'minitest'), { recursive: true });
  await mkdir(reports, { recursive: true });
  await writeFile(path.join(lib, 'minitest', 'booty_plugin.rb'), SOURCE);
  return { lib, reports };
}
