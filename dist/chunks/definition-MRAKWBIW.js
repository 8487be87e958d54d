import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-MJXIQW23.js";import"./chunk-RQOGXHAE.js";import"./chunk-PQMENH5K.js";import"./chunk-S6T42IHK.js";import"./chunk-SYKTMU6E.js";import"./chunk-QLCKGHYD.js";import"./chunk-Z2JN6ZDY.js";import"./chunk-N7B7JHUD.js";import"./chunk-S6LZZGEC.js";import"./chunk-7DOOPZ4R.js";import"./chunk-QQMVQEPJ.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
