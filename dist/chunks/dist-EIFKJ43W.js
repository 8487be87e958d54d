import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-UAOTSIGR.js";import"./chunk-XBPPTJU7.js";export default a();
