/** /help [command]: every command on one line, or one command in full. */
import { helpCard } from '../src/cards/helpCard';
import { defineCommand } from '../src/dispatch/command';

export default defineCommand({
  name: 'help',
  description: 'List the commands, or show one command’s options and an example',
  help: [
    'Without a name, lists every command with what it answers. With one, shows that command’s usage, its options and an example.',
    'Example: /help chart',
  ].join('\n'),
  options: [{ name: 'command', type: 'text', description: 'A command name, such as chart', required: false, maxLength: 40 }],
  run: (args, context) => Promise.resolve(helpCard(context.commands, args.command)),
});
