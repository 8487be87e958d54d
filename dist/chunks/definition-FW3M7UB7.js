import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-2B7MXLO7.js";import"./chunk-WZADPM4R.js";import"./chunk-UCXDIBA5.js";import"./chunk-OXAQ6FNM.js";import"./chunk-4UK4QWW5.js";import"./chunk-AGOBB62V.js";import"./chunk-XBPPTJU7.js";export{a as action};
