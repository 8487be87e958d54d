import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{c as a,d as b}from"./chunk-RRAPPDEZ.js";import"./chunk-ZMU5YZ4R.js";import"./chunk-AYWZWFCT.js";import"./chunk-XBPPTJU7.js";export{a as context,b as getOctokit};
