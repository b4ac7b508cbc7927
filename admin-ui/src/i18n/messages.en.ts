import englishMessages from 'ra-language-english';
import { appEnglish } from './appMessages.en';

export default { ...englishMessages, app: appEnglish };
